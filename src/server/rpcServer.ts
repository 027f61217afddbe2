/**
 * The JSON-RPC interface on a socket: a fastify plugin that puts the same dispatch
 * as `devnet.rpc` behind HTTP POST, with go-ethereum's transport rules
 * (reference §6.1): JSON content types only (415 otherwise), a body limit (413),
 * parse errors as JSON-RPC -32700, GET without body as a health check, CORS `*`,
 * go-ethereum's Host check (403 `invalid host specified` for a name not in vhosts);
 * and WebSocket upgrades on the same port (webSocket.ts), closed with a normal close
 * frame before the server stops.
 */
import cors from '@fastify/cors'
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify'
import type { RpcContext } from '../rpc/context.ts'
import { handleRpcBody } from '../rpc/dispatch.ts'
import { RpcErrorCode } from '../rpc/errors.ts'
import { hostRefusal, type VirtualHosts } from './guards.ts'
import { jsonTooDeep } from './jsonDepth.ts'
import { noteExchange } from './requestLog.ts'
import { attachWebSocket } from './webSocket.ts'

/** Options of {@link rpcRoutes}. */
export interface RpcRoutesOptions {
  context: RpcContext
  /** Largest accepted body, in bytes. */
  bodyLimit: number
  /** Allowed origins (CORS, and WebSocket upgrades with an Origin); default `'*'`; `false`: no CORS headers, no browser upgrades. */
  cors?: string | readonly string[] | false
  /** Host names answered (IP addresses always are); default: localhost. */
  vhosts: VirtualHosts
  /** Leave each call and answer on the request for the log line (requestLog.ts); off: no cost. */
  record?: boolean
}

const JSON_TYPES = ['application/json', 'application/json-rpc', 'application/jsonrequest']

/** Registers the JSON-RPC endpoint at `/`. */
export const rpcRoutes: FastifyPluginAsync<RpcRoutesOptions> = async (app: FastifyInstance, { context, bodyLimit, cors: origins = '*', vhosts, record = false }) => {
  // First of all hooks, before any body is read: go-ethereum's plain-text 403 (node/rpcstack.go).
  app.addHook('onRequest', async (request, reply) => {
    const refusal = hostRefusal(request.headers.host, vhosts)
    if (refusal !== undefined) return reply.code(403).type('text/plain; charset=utf-8').send(`${refusal}\n`)
  })
  if (origins !== false) await app.register(cors, { origin: typeof origins === 'string' ? origins : [...origins] })

  const webSocket = attachWebSocket(app.server, { context, maxPayload: bodyLimit, cors: origins, vhosts })
  // Before the HTTP server closes: upgraded sockets are not among the connections it would force closed.
  app.addHook('preClose', async () => webSocket.close())

  app.removeAllContentTypeParsers()
  // Parse ourselves, so that bad JSON becomes a JSON-RPC parse error, not an HTTP 400.
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string', bodyLimit }, (_req, body, done) => done(null, body))
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_req, _body, done) => {
    done(Object.assign(new Error('invalid content type, only application/json is supported'), { statusCode: 415 }))
  })

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const answer = rpcError(RpcErrorCode.InvalidRequest, `request body too large: the limit is ${bodyLimit} bytes (option bodyLimit)`)
      if (record) noteExchange(request, undefined, answer)
      return reply.code(413).send(answer)
    }
    if (err.statusCode === 415) return reply.code(415).type('text/plain').send(err.message)
    return reply.code(err.statusCode ?? 500).send(rpcError(RpcErrorCode.ServerError, err.message))
  })

  app.post('/', async (request, reply) => {
    let body: unknown
    const text = String(request.body ?? '')
    // Refused before JSON.parse, which a million `[` would hold up for half a second.
    if (jsonTooDeep(text, context.limits.jsonDepthLimit)) {
      const answer = rpcError(RpcErrorCode.ParseError, `parse error: JSON nested deeper than ${context.limits.jsonDepthLimit} levels (option jsonDepthLimit)`)
      if (record) noteExchange(request, undefined, answer)
      return reply.send(answer)
    }
    try {
      body = JSON.parse(text)
    } catch {
      const answer = rpcError(RpcErrorCode.ParseError, 'parse error')
      if (record) noteExchange(request, undefined, answer)
      return reply.send(answer)
    }
    const response = await handleRpcBody(context, body)
    if (record) noteExchange(request, body, response)
    if (response === undefined) return reply.code(200).send('')
    return reply.type('application/json').send(response)
  })

  // go-ethereum's health check: a GET without a body answers 200 with nothing.
  app.get('/', async (_request, reply) => reply.code(200).send(''))
  // Refused in onRequest, before any body is read (go-ethereum answers 405 whatever the body).
  const notAllowed = async (_request: unknown, reply: FastifyReply) => reply.code(405).type('text/plain').send('method not allowed')
  app.route({ method: ['PUT', 'DELETE', 'PATCH'], url: '/', onRequest: notAllowed, handler: notAllowed })
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', id: null, error: { code, message } }
}
