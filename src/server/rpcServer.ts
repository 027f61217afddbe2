/**
 * The JSON-RPC interface on a socket: a `node:http` server that puts the same dispatch
 * as `devnet.rpc` behind HTTP POST `/`, with go-ethereum's transport rules (reference
 * §6.1): JSON content types only (415 otherwise), a body limit (413), parse errors as
 * JSON-RPC -32700, GET without body as a health check, PUT/DELETE/PATCH 405, go-ethereum's
 * Host check (403 `invalid host specified` for a name not in vhosts), CORS (the
 * `cors` listen option: `*` by default, a list of origins, or off) with preflights; and
 * WebSocket upgrades on the same port (webSocket.ts), closed with a normal close frame
 * before the server stops.
 *
 * Plain `node:http`, not fastify (which the REST server uses): this server has one route,
 * and a fresh process's start to its first answer is the figure Anvil sets (issue 24).
 * Without fastify and @fastify/cors the server starts with about a third less CPU and
 * each request costs 10–15 % less (docs/performance.md, "CLI start"). The answers are
 * those the fastify server gave, byte for byte but the order of headers: its 404 body
 * for other paths (without CORS headers or Host check, as before), @fastify/cors'
 * headers and preflight rules (`Access-Control-Allow-Methods: GET,HEAD,POST`, the
 * request's headers allowed, 400 `Invalid Preflight Request` without Origin or
 * Access-Control-Request-Method, `Vary: Origin` for a list of origins) and its
 * timeouts (keep-alive 72 s, no request timeout). What Node's HTTP parser refuses and
 * an HTTP/1.1 request without Host get a JSON-RPC error object (issue 35).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { lookup } from 'node:dns/promises'
import type { Duplex } from 'node:stream'
import type { RpcContext } from '../rpc/context.ts'
import { handleRpcBody, toRpcError } from '../rpc/dispatch.ts'
import { RpcErrorCode } from '../rpc/errors.ts'
import { hostRefusal, MISSING_HOST, type VirtualHosts } from './guards.ts'
import { jsonTooDeep } from './jsonDepth.ts'
import { type Exchange, rpcLine } from './requestLog.ts'
import { attachWebSocket } from './webSocket.ts'

// node:http by `process.getBuiltinModule` (Node ≥ 20.16), not an ES `import`: on Node 22
// and later, importing it as an ES module evaluates its lazy `WebSocket`, `CloseEvent`
// and `MessageEvent` exports, which load undici (about 25 ms of a cold start, measured on
// Node 22.23), and the server uses none of them.
const { createServer, STATUS_CODES } = process.getBuiltinModule('node:http')

/** Options of {@link createRpcServer}. */
export interface RpcServerOptions {
  context: RpcContext
  /** Largest accepted body, in bytes. */
  bodyLimit: number
  /** Allowed origins (CORS, and WebSocket upgrades with an Origin); default `'*'`; `false`: no CORS headers, no preflights, no browser upgrades. */
  cors?: string | readonly string[] | false
  /** Host names answered (IP addresses always are); default: localhost. */
  vhosts: VirtualHosts
  /** Called with one line per answered request (requestLog.ts); absent: no line is made. */
  log?: (line: string) => void
  /**
   * Pages served beside JSON-RPC (the explorer, src/explorer/): GET and HEAD of a path
   * under `prefix`, after the Host check, answered by `serve`. Absent: those paths get
   * the 404 of any other path.
   */
  pages?: { prefix: string; serve: (request: IncomingMessage, response: ServerResponse) => void }
}

/** The JSON-RPC server of one devnet. */
export interface RpcServer {
  readonly server: Server
  /**
   * Binds `host:port` (port 0: any free one) and resolves to the base URL; rejects with
   * Node's error (`EADDRINUSE`, ...). `localhost` binds each of its addresses (127.0.0.1 and
   * ::1 where both exist) on the one port, as fastify did; an address that cannot be bound
   * besides the first is skipped.
   */
  listen(host: string, port: number): Promise<string>
  /** Closes the WebSocket sessions with a normal close frame, then the server and every connection. */
  close(): Promise<void>
}

/** Media types of a JSON-RPC body (go-ethereum's acceptedContentTypes), compared without parameters and case. */
const JSON_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'])

/** fastify's keep-alive timeout, which clients of the earlier fastify server saw, in milliseconds. */
const KEEP_ALIVE_MS = 72_000

/** Creates the JSON-RPC server, not yet bound: its `listen()` binds it. */
export function createRpcServer({ context, bodyLimit, cors = '*', vhosts, log, pages }: RpcServerOptions): RpcServer {
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    const started = log === undefined ? 0 : performance.now()
    const note: Note = {}
    if (log !== undefined) {
      response.once('finish', () => {
        const time = `${(performance.now() - started).toFixed(1)}ms`
        log(rpcLine(request.method ?? '', request.url ?? '', response.statusCode, time, note.exchange))
      })
    }
    route(request, response, note)
  }
  const server = httpServer(onRequest)
  /** The other addresses of `localhost`, bound beside the first. */
  const secondary: Server[] = []

  const webSocket = attachWebSocket(server, { context, maxPayload: bodyLimit, cors, vhosts })
  const allowOrigin = corsHeaders(cors)

  function route(request: IncomingMessage, response: ServerResponse, note: Note): void {
    const url = request.url ?? '/'
    const method = request.method ?? 'GET'
    const query = url.indexOf('?')
    const path = query === -1 ? url : url.slice(0, query)
    const atRoot = path === '/'
    const preflight = method === 'OPTIONS' && allowOrigin !== undefined
    // RFC 9112 §3.2, as Go's net/http (go-ethereum's server) answers it; Node's own check, an empty 400, is off (httpServer).
    if (request.httpVersion === '1.1' && request.headers.host === undefined) {
      const answer = rpcError(RpcErrorCode.InvalidRequest, MISSING_HOST)
      note.exchange = { call: undefined, answer }
      response.setHeader('connection', 'close')
      return send(response, 400, JSON_TYPE, JSON.stringify(answer))
    }
    if (pages !== undefined && (method === 'GET' || method === 'HEAD') && (path === pages.prefix || path.startsWith(`${pages.prefix}/`))) {
      const refusal = hostRefusal(request.headers.host, vhosts)
      if (refusal !== undefined) return send(response, 403, 'text/plain; charset=utf-8', `${refusal}\n`)
      return pages.serve(request, response)
    }
    if (!preflight && (!atRoot || !ROOT_METHODS.has(method))) return notFound(response, method, url)
    // Before anything else, as go-ethereum (node/rpcstack.go): a plain-text 403, no CORS headers.
    const refusal = hostRefusal(request.headers.host, vhosts)
    if (refusal !== undefined) return send(response, 403, 'text/plain; charset=utf-8', `${refusal}\n`)
    allowOrigin?.(request, response)
    if (preflight) return answerPreflight(request, response)
    if (method === 'GET' || method === 'HEAD') return send(response, 200, 'text/plain; charset=utf-8', '')
    if (method !== 'POST') return send(response, 405, 'text/plain', 'method not allowed')
    // A body that breaks off (the client gone) leaves nothing to answer: the socket is closed.
    answerPost(request, response, note).catch(() => response.destroy())
  }

  async function answerPost(request: IncomingMessage, response: ServerResponse, note: Note): Promise<void> {
    const type = request.headers['content-type']
    const hasBody = request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0')
    let text = ''
    if (type !== undefined || hasBody) {
      if (type === undefined || !JSON_TYPES.has(mediaType(type))) return refuseBody(response, 415, 'text/plain', 'invalid content type, only application/json is supported')
      const body = await readBody(request, bodyLimit)
      if (body === undefined) {
        const answer = rpcError(RpcErrorCode.InvalidRequest, `request body too large: the limit is ${bodyLimit} bytes (option bodyLimit)`)
        note.exchange = { call: undefined, answer }
        return refuseBody(response, 413, JSON_TYPE, JSON.stringify(answer))
      }
      text = body
    }
    // Refused before JSON.parse, which a million `[` would hold up for half a second.
    if (jsonTooDeep(text, context.limits.jsonDepthLimit)) {
      const answer = rpcError(RpcErrorCode.ParseError, `parse error: JSON nested deeper than ${context.limits.jsonDepthLimit} levels (option jsonDepthLimit)`)
      note.exchange = { call: undefined, answer }
      return send(response, 200, JSON_TYPE, JSON.stringify(answer))
    }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      const answer = rpcError(RpcErrorCode.ParseError, 'parse error')
      note.exchange = { call: undefined, answer }
      return send(response, 200, JSON_TYPE, JSON.stringify(answer))
    }
    let answer: Awaited<ReturnType<typeof handleRpcBody>>
    try {
      answer = await handleRpcBody(context, body)
    } catch (err) {
      // The dispatch answers every method's failure itself; this is a fault of its own.
      return send(response, 500, JSON_TYPE, JSON.stringify({ jsonrpc: '2.0', id: null, error: toRpcError(err).toJSON() }))
    }
    note.exchange = { call: body, answer }
    if (answer === undefined) return send(response, 200, 'text/plain; charset=utf-8', '')
    send(response, 200, JSON_TYPE, JSON.stringify(answer))
  }

  return {
    server,
    async listen(host, port) {
      await bind(server, host, port)
      const address = server.address()
      const bound = typeof address === 'object' && address !== null ? address.port : port
      if (host === 'localhost' && typeof address === 'object' && address !== null) {
        const others = (await lookup(host, { all: true }).catch(() => [])).filter((a) => a.address !== address.address)
        await Promise.all(
          others.map(async ({ address: other }) => {
            const extra = httpServer(onRequest)
            extra.on('upgrade', (...args: unknown[]) => server.emit('upgrade', ...args))
            if (
              await bind(extra, other, bound).then(
                () => true,
                () => false,
              )
            )
              secondary.push(extra)
          }),
        )
      }
      return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`
    },
    async close() {
      await webSocket.close()
      await Promise.all(
        [server, ...secondary].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve())
              s.closeAllConnections()
            }),
        ),
      )
    },
  }
}

/** What a request was answered in JSON-RPC, for its log line; none for answers outside JSON-RPC (403, 404, 415, ...). */
interface Note {
  exchange?: Exchange
}

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * An HTTP server with fastify's timeouts, calling `onRequest`; what Node's parser refuses
 * is answered by {@link clientError}, and an HTTP/1.1 request without Host by `route`.
 */
function httpServer(onRequest: (request: IncomingMessage, response: ServerResponse) => void): Server {
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS, requestTimeout: 0, requireHostHeader: false }, onRequest)
  server.setTimeout(0)
  server.on('clientError', clientError)
  return server
}

/** Binds `server` to `host:port`; rejects with the bind error. */
function bind(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host, port }, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** Methods served at `/` (HEAD as GET); every other one gets the 404 of any other path. */
const ROOT_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'])

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.statusCode = status
  response.setHeader('content-type', type)
  response.setHeader('content-length', Buffer.byteLength(body))
  response.end(body)
}

/** An answer given without reading the body: the connection closes after it (as fastify did), so the unread bytes are not taken for the next request. */
function refuseBody(response: ServerResponse, status: number, type: string, body: string): void {
  response.setHeader('connection', 'close')
  send(response, status, type, body)
}

/** fastify's answer for a path or method without a route. */
function notFound(response: ServerResponse, method: string, url: string): void {
  send(response, 404, JSON_TYPE, JSON.stringify({ message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 }))
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
function mediaType(contentType: string): string {
  const semicolon = contentType.indexOf(';')
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase()
}

/** The request's body as UTF-8 text, or `undefined` once it passes `limit` bytes (by its Content-Length or as it arrives). */
function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = request.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    const onData = (chunk: Buffer) => {
      length += chunk.length
      if (length > limit) {
        request.off('data', onData)
        request.pause()
        return resolve(undefined)
      }
      chunks.push(chunk)
    }
    request.on('data', onData)
    request.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, length).toString('utf8')))
    request.once('error', reject)
  })
}

/**
 * The CORS headers of every answer at `/` (and of preflights), as @fastify/cors wrote
 * them: `Access-Control-Allow-Origin: *` for `'*'`; for a list, the request's Origin when
 * it is listed, and `Vary: Origin` always. `undefined` when CORS is off.
 */
function corsHeaders(cors: string | readonly string[] | false): ((request: IncomingMessage, response: ServerResponse) => void) | undefined {
  if (cors === false) return undefined
  if (typeof cors === 'string' || cors.includes('*')) {
    const origin = typeof cors === 'string' ? cors : '*'
    return (_request, response) => response.setHeader('access-control-allow-origin', origin)
  }
  const allowed = new Set(cors)
  return (request, response) => {
    response.setHeader('vary', 'Origin')
    const origin = request.headers.origin
    if (origin !== undefined && allowed.has(origin)) response.setHeader('access-control-allow-origin', origin)
  }
}

/** A CORS preflight (OPTIONS, any path), after the Origin headers: @fastify/cors' strict rules and its 204. */
function answerPreflight(request: IncomingMessage, response: ServerResponse): void {
  if (request.headers.origin === undefined || request.headers['access-control-request-method'] === undefined) {
    return send(response, 400, 'text/plain', 'Invalid Preflight Request')
  }
  response.setHeader('access-control-allow-methods', 'GET,HEAD,POST')
  const vary = response.getHeader('vary')
  response.setHeader('vary', vary === undefined ? 'Access-Control-Request-Headers' : `${String(vary)}, Access-Control-Request-Headers`)
  const requested = request.headers['access-control-request-headers']
  if (requested !== undefined) response.setHeader('access-control-allow-headers', requested)
  response.statusCode = 204
  response.setHeader('content-length', '0')
  response.end()
}

/**
 * A request Node's HTTP parser refused (400 for bytes that are not HTTP, 408, 431 for
 * headers over 16 KiB): that HTTP status with a JSON-RPC error object, -32600 and the
 * reason, as every other refusal of this server; then the socket is closed (its stream
 * cannot be trusted). (fastify's own `{ error, message, statusCode }` before.)
 */
function clientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request timeout: the request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request header fields too large: the URL and headers exceed 16 KiB']
        : [400, 'invalid HTTP request']
  const body = JSON.stringify(rpcError(RpcErrorCode.InvalidRequest, message))
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${body.length}\r\nContent-Type: ${JSON_TYPE}\r\n\r\n${body}`)
  socket.destroy(err)
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', id: null, error: { code, message } }
}
