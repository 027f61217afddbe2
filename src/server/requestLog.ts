/**
 * One line per answered request, for `listen({ log })` (the CLI prints them unless
 * `--quiet`). JSON-RPC: the method, or `batch(n)` for a batch, the time, and an
 * error's code and message; REST: the path, the time, the route's Action and its
 * Error code (with the Desc when not 0). HTTP statuses other than 200 are shown.
 *
 *     rpc eth_chainId 1.6ms
 *     rpc eth_call 2.1ms error 3 execution reverted: too low
 *     rpc batch(3) 4.0ms 1 error, first -32601 the method eth_foo does not exist/is not available
 *     rpc POST / 415 0.3ms
 *     rest GET /api/v1/block/height 0.9ms getblockheight Error 0
 *     rest GET /api/v1/balance/x 0.7ms getbalance Error 42002 INVALID PARAMS
 *
 * The route handlers note what they parsed and answered on the request only when a
 * log is wanted ({@link noteExchange}); the line is made after the answer is sent.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'

/** Where a handler leaves the exchange for the log line. */
const EXCHANGE = Symbol('dualnet.exchange')

/** What a handler parsed and answered: a JSON-RPC call or batch and its response(s), or a REST envelope. */
export interface Exchange {
  readonly call: unknown
  readonly answer: unknown
}

/** Leaves `call` and `answer` on `request` for its log line (handlers call it only when logging). */
export function noteExchange(request: FastifyRequest, call: unknown, answer: unknown): void {
  ;(request as FastifyRequest & { [EXCHANGE]?: Exchange })[EXCHANGE] = { call, answer }
}

/** Longest error message in a line, in characters (a revert reason can be long). */
const MAX_MESSAGE = 200

/** Reports every answered request of `app` (`kind` `rpc` or `rest`) as one line to `log`. */
export function logRequests(app: FastifyInstance, kind: 'rpc' | 'rest', log: (line: string) => void): void {
  const line = kind === 'rpc' ? rpcLine : restLine
  app.addHook('onResponse', async (request, reply) => {
    const exchange = (request as FastifyRequest & { [EXCHANGE]?: Exchange })[EXCHANGE]
    log(line(request.method, request.url, reply.statusCode, `${reply.elapsedTime.toFixed(1)}ms`, exchange))
  })
}

/** An answered JSON-RPC request's line (see the module's examples). */
export function rpcLine(method: string, url: string, status: number, time: string, exchange: Exchange | undefined): string {
  const call = exchange?.call
  const label = Array.isArray(call) ? `batch(${call.length})` : typeof (call as { method?: unknown } | undefined)?.method === 'string' ? (call as { method: string }).method : `${method} ${url}`
  const answers = exchange === undefined ? [] : Array.isArray(exchange.answer) ? exchange.answer : [exchange.answer]
  const errors = answers.filter((a): a is { error: { code: number; message: string } } => typeof a === 'object' && a !== null && 'error' in a)
  const head = `rpc ${label}${status === 200 ? '' : ` ${status}`} ${time}`
  if (errors.length === 0) return head
  const first = `${errors[0]!.error.code} ${clip(errors[0]!.error.message)}`
  return Array.isArray(call) ? `${head} ${errors.length} error${errors.length === 1 ? '' : 's'}, first ${first}` : `${head} error ${first}`
}

/** An answered REST request's line (see the module's examples). */
export function restLine(method: string, url: string, status: number, time: string, exchange: Exchange | undefined): string {
  const head = `rest ${method} ${url}${status === 200 ? '' : ` ${status}`} ${time}`
  const envelope = exchange?.answer as { Action?: string; Error?: number; Desc?: string } | undefined
  if (envelope === undefined) return head
  return `${head} ${envelope.Action === '' ? '-' : envelope.Action} Error ${envelope.Error}${envelope.Error === 0 ? '' : ` ${envelope.Desc}`}`
}

/** `message` cut to {@link MAX_MESSAGE} characters, on one line. */
function clip(message: string): string {
  const flat = message.replace(/\s+/g, ' ')
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE - 3)}...` : flat
}
