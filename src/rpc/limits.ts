/**
 * Limits of the JSON-RPC surface: how much one request may ask of the devnet. Each
 * is a createDevnet option (README "Limits and guarantees"); crossing one answers a
 * clear error and changes nothing, and the next request is served.
 */
import { LIMIT_DEFAULTS } from '../core/limits.ts'
import { RpcError, RpcErrorCode } from './errors.ts'

/** The limits one devnet applies; see {@link rpcLimits} for the defaults. */
export interface RpcLimits {
  /** Most requests in one batch (go-ethereum's `BatchRequestLimit`, default 1,000). */
  readonly batchLimit: number
  /** Longest string in a request's params, in hex digits after `0x` (default 2 Mi digits: 1 MiB of DATA). */
  readonly hexLimit: number
  /** Deepest nesting of arrays and objects in a request, bodies and params alike (default 100). */
  readonly jsonDepthLimit: number
  /** Widest span toBlock - fromBlock of one eth_getLogs or eth_getFilterLogs (default 100,000, the real node's, reference §6.2). */
  readonly logsBlockRange: number
  /** Most logs one eth_getLogs, eth_getFilterLogs or eth_getFilterChanges answers (default 10,000). */
  readonly logsResultLimit: number
  /** Most installed polling filters (default 10,000; unpolled ones expire after 5 minutes). */
  readonly filterLimit: number
  /** Most live eth_subscribe subscriptions in the devnet, all connections together (default 10,000). */
  readonly subscriptionLimit: number
  /** Largest struct-log trace of debug_traceTransaction / debug_traceCall, in bytes of JSON (default 128 MiB). */
  readonly traceSizeLimit: number
  /** Most blocks one mine call (hardhat_mine, anvil_mine, devnet.mine) may add (default 1,000,000). */
  readonly mineLimit: number
  /** Bytes of results after which a batch's remaining requests get `response too large` (go-ethereum's BatchResponseMaxSize, 25,000,000). */
  readonly batchResponseLimit: number
  /** Longest one trace (debug_traceTransaction / debug_traceCall) runs, in ms, unless its tracer option `timeout` says otherwise (go-ethereum's default, 5,000). */
  readonly traceTimeout: number
  /** Milliseconds the trace calls of one JSON-RPC batch may run in all (default 10,000). */
  readonly batchTraceTimeout: number
  /** Largest state document anvil_loadState reads, in bytes of JSON after inflating (default 64 MiB). */
  readonly stateLimit: number
  /**
   * Bytes of answers and notifications a WebSocket client may leave unread (ws's
   * `bufferedAmount`: written by the devnet, not yet taken by the socket) before the
   * devnet closes it with 1008 (default 16 MiB; server/webSocket.ts).
   */
  readonly wsBufferLimit: number
}

/** The options {@link rpcLimits} reads: each limit, optional (the limit options of DevnetOptions). */
export type RpcLimitOptions = { [K in keyof RpcLimits]?: number }

/** The defaults (core/limits.ts, where every limit default is written). */
export const DEFAULT_RPC_LIMITS: RpcLimits = Object.freeze({
  batchLimit: LIMIT_DEFAULTS.batchLimit,
  hexLimit: LIMIT_DEFAULTS.hexLimit,
  jsonDepthLimit: LIMIT_DEFAULTS.jsonDepthLimit,
  logsBlockRange: LIMIT_DEFAULTS.logsBlockRange,
  logsResultLimit: LIMIT_DEFAULTS.logsResultLimit,
  filterLimit: LIMIT_DEFAULTS.filterLimit,
  subscriptionLimit: LIMIT_DEFAULTS.subscriptionLimit,
  traceSizeLimit: LIMIT_DEFAULTS.traceSizeLimit,
  mineLimit: LIMIT_DEFAULTS.mineLimit,
  batchResponseLimit: LIMIT_DEFAULTS.batchResponseLimit,
  traceTimeout: LIMIT_DEFAULTS.traceTimeout,
  batchTraceTimeout: LIMIT_DEFAULTS.batchTraceTimeout,
  stateLimit: LIMIT_DEFAULTS.stateLimit,
  wsBufferLimit: LIMIT_DEFAULTS.wsBufferLimit,
})

/**
 * The limits from createDevnet options, defaults for the ones left out. Throws
 * RangeError for a limit that is not a positive whole number.
 */
export function rpcLimits(options: RpcLimitOptions = {}): RpcLimits {
  const limits = { ...DEFAULT_RPC_LIMITS }
  for (const key of Object.keys(DEFAULT_RPC_LIMITS) as (keyof RpcLimits)[]) {
    const value = options[key]
    if (value === undefined) continue
    if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`option ${key} must be a positive whole number, got ${String(value)}`)
    limits[key] = value
  }
  return Object.freeze(limits)
}

/**
 * Checks a request's params against the string-length and nesting limits, before any
 * parser sees them. Throws RpcError -32602 naming the argument. Costs one walk over
 * the params (a handful of values for every real method).
 */
export function checkParamLimits(params: unknown, limits: RpcLimits): void {
  if (!Array.isArray(params)) return
  for (let i = 0; i < params.length; i++) walk(params[i], i, 1, limits)
}

function walk(value: unknown, index: number, depth: number, limits: RpcLimits): void {
  if (typeof value === 'string') {
    if (value.length > limits.hexLimit + 2) {
      throw new RpcError(RpcErrorCode.InvalidParams, `invalid argument ${index}: string of ${value.length} characters, longer than the limit of ${limits.hexLimit} hex digits (option hexLimit)`)
    }
    return
  }
  if (typeof value !== 'object' || value === null) return
  if (depth >= limits.jsonDepthLimit) {
    throw new RpcError(RpcErrorCode.InvalidParams, `invalid argument ${index}: nested deeper than ${limits.jsonDepthLimit} levels (option jsonDepthLimit)`)
  }
  if (Array.isArray(value)) {
    for (const item of value) walk(item, index, depth + 1, limits)
    return
  }
  for (const key in value) if (Object.hasOwn(value, key)) walk((value as Record<string, unknown>)[key], index, depth + 1, limits)
}
