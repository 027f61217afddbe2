/**
 * JSON-RPC 2.0 dispatch shared by the function-call API and the HTTP server:
 * request validation, batches, notifications, and the mapping of chain errors to
 * error objects (reference §6.1).
 */
import { retryOnForkMiss } from '../fork/miss.ts'
import { DualnetError } from '../errors/base.ts'
import type { RpcCallScope, RpcContext } from './context.ts'
import { RpcError, RpcErrorCode } from './errors.ts'
import { rpcErrorOf } from './errorCodes.ts'
import { rpcMethods } from './methods/index.ts'
import { checkParamLimits } from './limits.ts'
import type { CallInfo, RpcMethodDeclaration } from './declare.ts'
import { LOCAL, remoteAnswer } from './forkPolicy.ts'

/** A JSON-RPC response object. */
export type RpcResponse = { jsonrpc: '2.0'; id: string | number | null; result: unknown } | { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string; data?: unknown } }

/**
 * Calls `method` with `params` and resolves to its result. Throws {@link RpcError}
 * for every failure, with the code and message the HTTP surface would answer.
 * `scope`: what the calls of one batch share (its trace budget).
 */
export async function callRpc(ctx: RpcContext, method: string, params: unknown, scope?: RpcCallScope): Promise<unknown> {
  const declaration = Object.hasOwn(rpcMethods, method) ? rpcMethods[method] : undefined
  if (declaration === undefined) {
    throw new RpcError(RpcErrorCode.MethodNotFound, `the method ${method} does not exist/is not available`)
  }
  checkParamLimits(params, ctx.limits)
  const call = scope === undefined ? NO_SCOPE : { scope }
  try {
    const raw = paramList(params, declaration)
    let result: unknown
    if (ctx.chain.fork === undefined) {
      result = await declaration.handler(ctx, parseParams(ctx, declaration, raw), call)
    } else {
      // Over a fork, a call that read a value not fetched yet runs again once it is (fork/miss.ts).
      result = await retryOnForkMiss(() => {
        const parsed = parseParams(ctx, declaration, raw)
        const remote = remoteAnswer(ctx.chain, declaration, parsed, raw)
        return remote === LOCAL ? declaration.handler(ctx, parsed, call) : remote
      })
    }
    // With a durable database nothing is answered before what it reports is on disk (persistence/store.ts).
    const written = ctx.chain.flushed()
    if (written !== undefined) await written
    return result
  } catch (err) {
    throw toRpcError(err)
  }
}

/** What a handler gets beside its params outside a batch. */
const NO_SCOPE: CallInfo = Object.freeze({ scope: undefined })

/** No params: what a method without any is handed (handlers never write to their params). */
const NO_PARAMS: unknown[] = []

/**
 * The params array of a call: absent or null is `[]`; anything else than an array,
 * or a length outside what the declaration takes, is -32602 (go-ethereum's texts).
 */
function paramList(params: unknown, declaration: RpcMethodDeclaration): unknown[] {
  if (params === undefined || params === null) return checkCount(NO_PARAMS, declaration)
  if (!Array.isArray(params)) throw new RpcError(RpcErrorCode.InvalidParams, 'non-array args')
  return checkCount(params, declaration)
}

function checkCount(params: unknown[], declaration: RpcMethodDeclaration): unknown[] {
  if (params.length > declaration.params.length) throw new RpcError(RpcErrorCode.InvalidParams, `too many arguments, want at most ${declaration.params.length}`)
  if (params.length < declaration.required) throw new RpcError(RpcErrorCode.InvalidParams, `missing value for required argument ${params.length}`)
  return params
}

/** Each param parsed by its spec; a -32602 names the parameter in its `data` (`{ param }`). */
function parseParams(ctx: RpcContext, declaration: RpcMethodDeclaration, raw: readonly unknown[]): unknown[] {
  const specs = declaration.params
  if (specs.length === 0) return NO_PARAMS
  const parsed = new Array<unknown>(specs.length)
  let i = 0
  try {
    for (; i < specs.length; i++) {
      const spec = specs[i]!
      const value = raw[i]
      parsed[i] = spec.optional && (value === undefined || value === null) ? spec.parse(undefined, i, ctx) : spec.parse(value, i, ctx)
    }
  } catch (err) {
    if (err instanceof RpcError && err.code === RpcErrorCode.InvalidParams && err.data === undefined) {
      throw new RpcError(err.code, err.message, { data: { param: specs[i]!.name }, cause: err.cause })
    }
    throw err
  }
  return parsed
}

/**
 * Answers a parsed JSON-RPC body: one request object or a batch. Resolves to the
 * response (an array for a batch) or `undefined` when nothing is to be answered
 * (notifications only).
 */
export async function handleRpcBody(ctx: RpcContext, body: unknown): Promise<RpcResponse | RpcResponse[] | undefined> {
  if (Array.isArray(body)) {
    if (body.length === 0) return errorResponse(null, new RpcError(RpcErrorCode.InvalidRequest, 'empty batch'))
    if (body.length > ctx.limits.batchLimit) return [batchTooLarge(body, ctx.limits.batchLimit)]
    // One after another, as go-ethereum's handleBatch: once the answers pass the
    // response limit, the rest get `response too large` without running, so a batch of
    // heavy queries cannot hold more than about that much in memory.
    const answered: RpcResponse[] = []
    let size = 0
    // The batch's trace calls spend one budget of time (option batchTraceTimeout).
    const scope: RpcCallScope = { traceBudget: ctx.limits.batchTraceTimeout }
    for (const item of body) {
      if (size > ctx.limits.batchResponseLimit) {
        if (!isNotification(item)) answered.push(errorResponse(idOf(item), responseTooLarge(ctx.limits.batchResponseLimit)))
        continue
      }
      const response = await handleRequest(ctx, item, scope)
      if (response === undefined) continue
      answered.push(response)
      size += JSON.stringify('result' in response ? response.result : response.error).length
    }
    return answered.length === 0 ? undefined : answered
  }
  return handleRequest(ctx, body)
}

async function handleRequest(ctx: RpcContext, request: unknown, scope?: RpcCallScope): Promise<RpcResponse | undefined> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return errorResponse(null, new RpcError(RpcErrorCode.InvalidRequest, 'invalid request'))
  }
  const { id, method, params, jsonrpc } = request as Record<string, unknown>
  const validId = id === undefined || id === null || typeof id === 'string' || typeof id === 'number'
  if (!validId || jsonrpc !== '2.0' || typeof method !== 'string') {
    return errorResponse(validId ? ((id as string | number | null | undefined) ?? null) : null, new RpcError(RpcErrorCode.InvalidRequest, 'invalid request'))
  }
  // A request without an id is a notification: it runs, and gets no answer.
  const notification = id === undefined
  try {
    const result = await callRpc(ctx, method, params, scope)
    return notification ? undefined : { jsonrpc: '2.0', id: id as string | number | null, result: result ?? null }
  } catch (err) {
    return notification ? undefined : errorResponse(id as string | number | null, err as RpcError)
  }
}

/**
 * go-ethereum's answer to a batch above the limit (rpc/handler.go `respondWithBatchTooLarge`):
 * one -32600 `batch too large` error, in a batch, with the id of the first request
 * that has one; none of the requests runs.
 */
function batchTooLarge(batch: unknown[], limit: number): RpcResponse {
  const first = batch.find(
    (r): r is { id: string | number } => typeof r === 'object' && r !== null && (typeof (r as { id?: unknown }).id === 'string' || typeof (r as { id?: unknown }).id === 'number'),
  )
  return errorResponse(first?.id ?? null, new RpcError(RpcErrorCode.InvalidRequest, `batch too large: the limit is ${limit} requests (option batchLimit)`))
}

/** go-ethereum's answer beyond the batch response limit (rpc/errors.go `errcodeResponseTooLarge`). */
function responseTooLarge(limit: number): RpcError {
  return new RpcError(RpcErrorCode.ResponseTooLarge, `response too large: the batch's answers passed ${limit} bytes (option batchResponseLimit)`)
}

/** A request object without an id: run, never answered (JSON-RPC 2.0 §4.1). */
function isNotification(item: unknown): boolean {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false
  const { id, method, jsonrpc } = item as Record<string, unknown>
  return id === undefined && jsonrpc === '2.0' && typeof method === 'string'
}

/** The id an answer to `item` carries: its own when valid, else null. */
function idOf(item: unknown): string | number | null {
  const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

function errorResponse(id: string | number | null, err: RpcError): RpcResponse {
  return { jsonrpc: '2.0', id, error: err.toJSON() }
}

/**
 * The JSON-RPC error for anything a method threw: dualnet's errors by their code's
 * convention (rpc/errorCodes.ts), anything else -32000 with its message.
 */
export function toRpcError(err: unknown): RpcError {
  if (err instanceof DualnetError) return rpcErrorOf(err)
  const message = err instanceof Error ? err.message : String(err)
  return new RpcError(RpcErrorCode.ServerError, message, { cause: err })
}
