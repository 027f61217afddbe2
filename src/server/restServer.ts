/**
 * The REST interface on a socket: a fastify plugin that hands every request to the
 * same router as `devnet.rest`, with the node's transport (reference §1.1): HTTP 200
 * with the error in the envelope, 404 `404 page not found` for anything no route
 * matches, its CORS headers, and OPTIONS answered with an empty 200 on the POST route;
 * every other answer in the envelope too: a Host name not in vhosts (403), an HTTP/1.1
 * request without Host (400), a body too large (413), a URL fastify's router cannot
 * decode ({@link restFrameworkError}, 400), and what Node's HTTP parser refuses
 * ({@link restClientError}). The fastify options that route those here are
 * {@link REST_TRANSPORT}.
 */
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { RestContext } from '../rest/context.ts'
import { stringifyRest } from '../rest/json.ts'
import { handleRest, type RestEnvelope } from '../rest/router.ts'
import { describe, RestErrorCode } from '../rest/errors.ts'
import { hostRefusal, MISSING_HOST, type VirtualHosts } from './guards.ts'
import { jsonTooDeep } from './jsonDepth.ts'
import { noteExchange } from './requestLog.ts'

/** Options of {@link restRoutes}. */
export interface RestRoutesOptions {
  context: RestContext
  /** Largest accepted body, in bytes: above it HTTP 413 with a 41003 envelope. */
  bodyLimit: number
  /** Deepest nesting of a POST body's JSON: above it a 41003 envelope, without parsing it (default 100). */
  jsonDepthLimit?: number
  /** Host names answered (IP addresses always are): another gets HTTP 403 with a 41003 envelope. */
  vhosts: VirtualHosts
  /** Leave each answer's envelope on the request for the log line (requestLog.ts); off: no cost. */
  record?: boolean
}

/** Registers the REST catch-all route. */
export const restRoutes: FastifyPluginAsync<RestRoutesOptions> = async (app: FastifyInstance, { context, bodyLimit, jsonDepthLimit = 100, vhosts, record = false }) => {
  // Before any body is read. In the envelope, not go-ethereum's plain text: REST clients
  // (ontology-ts-sdk, wallets) parse every answer as one and would report a JSON error instead of the reason.
  app.addHook('onRequest', async (request, reply) => {
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400, as Go's net/http (the node's server) answers it.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      const envelope = refusedEnvelope(request.url, MISSING_HOST)
      if (record) noteExchange(request, undefined, envelope)
      return reply.code(400).headers(CORS).header('content-type', 'application/json;charset=utf-8').header('connection', 'close').send(stringifyRest(envelope))
    }
    const refusal = hostRefusal(request.headers.host, vhosts)
    if (refusal === undefined) return
    const envelope = refusedEnvelope(request.url, refusal)
    if (record) noteExchange(request, undefined, envelope)
    return reply.code(403).headers(CORS).header('content-type', 'application/json;charset=utf-8').send(stringifyRest(envelope))
  })
  app.removeAllContentTypeParsers()
  // The node reads the body whatever its content type.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_req, body, done) => done(null, body))
  // The node has no body limit; the devnet answers one in the envelope, with the transport's 413.
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    const tooLarge = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
    const text = tooLarge ? `request body too large: the limit is ${bodyLimit} bytes (option bodyLimit)` : 'bad request'
    const envelope = refusedEnvelope(request.url, text)
    if (record) noteExchange(request, undefined, envelope)
    return reply
      .code(tooLarge ? 413 : (err.statusCode ?? 400))
      .headers(CORS)
      .header('content-type', 'application/json;charset=utf-8')
      .send(stringifyRest(envelope))
  })
  app.route({
    method: ['GET', 'POST', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      if (request.method === 'OPTIONS' && request.url.split('?')[0] === '/api/v1/transaction') {
        return reply.code(200).headers(CORS).send('')
      }
      const body = typeof request.body === 'string' ? request.body : undefined
      if (body !== undefined && jsonTooDeep(body, jsonDepthLimit)) {
        const envelope = refusedEnvelope(request.url, `JSON nested deeper than ${jsonDepthLimit} levels (option jsonDepthLimit)`)
        if (record) noteExchange(request, undefined, envelope)
        return reply.code(200).headers(CORS).header('content-type', 'application/json;charset=utf-8').send(stringifyRest(envelope))
      }
      const answer = await handleRest(context, request.method, request.url, body)
      if (record && answer.status !== 404) noteExchange(request, undefined, answer.envelope)
      if (answer.status === 404) return reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n')
      return reply.code(200).headers(CORS).header('content-type', 'application/json;charset=utf-8').send(stringifyRest(answer.envelope))
    },
  })
}

/** A request refused before the router: 41003 ILLEGAL DATAFORMAT (what the node answers a body it cannot read, §1.5) with the reason. */
function refusedEnvelope(url: string, reason: string): RestEnvelope {
  const action = url.split('?')[0] === '/api/v1/transaction' ? 'sendrawtransaction' : ''
  return { Action: action, Desc: describe(RestErrorCode.IllegalDataFormat), Error: RestErrorCode.IllegalDataFormat, Result: reason, Version: '1.0.0' }
}

const CORS = {
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Allow-Origin': '*',
}

/**
 * fastify's `frameworkErrors` for the REST server: a request its router refuses before
 * any route or hook, a URL whose percent-escapes do not decode (`/api/v1/block/%zz`:
 * FST_ERR_BAD_URL, where fastify would answer its own JSON), is answered 400 with the
 * envelope, 41003 ILLEGAL DATAFORMAT (what the node answers a request it cannot read,
 * §1.5) and the reason. The connection stays open for the next request (Node discards
 * a body left unread).
 */
export function restFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const reason = err.code === 'FST_ERR_BAD_URL' ? 'invalid URL: a percent-escape that is not %XX of UTF-8' : 'bad request'
  void reply
    .code(err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400)
    .headers(CORS)
    .header('content-type', 'application/json;charset=utf-8')
    .send(stringifyRest(refusedEnvelope('', reason)))
}

/**
 * The REST server's `clientErrorHandler` (a fastify option): a request Node's HTTP parser
 * refuses before fastify sees it (a URL and headers over 16 KiB: 431; malformed HTTP:
 * 400; a request too slow to arrive: 408) is answered in the envelope, 41003 ILLEGAL
 * DATAFORMAT with `Result: ""` as the node answers a request it cannot read (§1.5),
 * with that HTTP status, and the connection is closed (its stream cannot be trusted).
 */
export function restClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, text] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout'] : [400, 'Bad Request']
  const body = stringifyRest({ Action: '', Desc: describe(RestErrorCode.IllegalDataFormat), Error: RestErrorCode.IllegalDataFormat, Result: '', Version: '1.0.0' })
  const headers = [
    `HTTP/1.1 ${status} ${text}`,
    'Connection: close',
    'Content-Type: application/json;charset=utf-8',
    ...Object.entries(CORS).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
  ]
  if (socket.writable) socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`)
  else socket.destroy()
}

/**
 * The fastify options of the REST server's transport (src/devnet/servers.ts spreads
 * them): every refusal before a route in the envelope. Node's Host check is off
 * (`requireHostHeader`), so the onRequest hook of {@link restRoutes} answers it.
 */
export const REST_TRANSPORT = {
  clientErrorHandler: restClientError,
  frameworkErrors: restFrameworkError,
  http: { requireHostHeader: false },
} as const
