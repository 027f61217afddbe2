/**
 * Log filter criteria and matching, shared by eth_getLogs and the log filters:
 * { fromBlock, toBlock | blockHash, address (one or many), topics (per position null,
 * one topic, or alternatives) }.
 */
import type { Chain } from '../chain/chain.ts'
import { bytesEqual, toHex, toHexRaw, toQuantity } from '../util/hex.ts'
import type { RemoteHistory } from '../fork/history.ts'
import { findHeight, type ChainContext } from './blockResolution.ts'
import { remoteBlockHeight } from '../fork/history.ts'
import { RpcError, RpcErrorCode, invalidArgument } from './errors.ts'
import { formatLog } from './format.ts'
import { parseAddress, parseBlockReference, parseHash } from './params.ts'
import type { RpcLimits } from './limits.ts'

/** Parsed criteria. Heights are resolved; `undefined` ends mean the tip at the time of the query. */
export interface LogCriteria {
  fromBlock: number | undefined
  toBlock: number | undefined
  /** Set for a single-block query by hash (eth_getLogs only). */
  blockHeight: number | undefined
  addresses: Uint8Array[]
  topics: (Uint8Array[] | null)[]
}

/**
 * Parses a filter object at argument `index`. A number above the tip reads as tip + 1
 * (go-ethereum stops at the first missing header): a range starting there is empty.
 */
export function parseLogCriteria(ctx: ChainContext, value: unknown, index: number): LogCriteria {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidArgument(index, 'json: cannot unmarshal non-object into Go value of type filters.FilterCriteria')
  }
  const f = value as Record<string, unknown>
  let blockHeight: number | undefined
  if (f.blockHash !== undefined && f.blockHash !== null) {
    if (f.fromBlock !== undefined || f.toBlock !== undefined) {
      throw invalidArgument(index, 'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    }
    const hash = parseHash(f.blockHash, index)
    const built = ctx.chain.blockByHash(toHexRaw(hash))
    // On a fork, a block it did not build (the fork block, or one it does not hold) is looked up on the remote (at or below the fork block only).
    const history = ctx.chain.fork?.history
    blockHeight = history !== undefined && (built === undefined || built.header.height <= history.height) ? remoteBlockHeight(history, toHex(hash)) : built?.header.height
    if (blockHeight === undefined) throw new RpcError(RpcErrorCode.ServerError, 'unknown block')
  }
  return {
    fromBlock: endpoint(ctx, f.fromBlock, index),
    toBlock: endpoint(ctx, f.toBlock, index),
    blockHeight,
    addresses: parseAddresses(f.address, index),
    topics: parseTopics(f.topics, index),
  }
}

/**
 * Formatted logs of blocks `from`..`to` (inclusive, clamped to the tip) that match
 * `criteria`. Throws RpcError -32000 once more than `maxResults` match (the scan stops
 * there, so a wide query cannot hold more than that many logs in memory).
 */
export function matchingLogs(chain: Chain, from: number, to: number, criteria: LogCriteria, maxResults = Number.POSITIVE_INFINITY) {
  const out: FormattedLog[] = []
  collectLogs(chain, from, to, logMatcher(criteria), out, maxResults)
  return out
}

type FormattedLog = ReturnType<typeof formatLog>

/** Adds the logs of blocks `from`..`to` (clamped to the tip) that `matches` accepts to `out`; throws past `maxResults`. */
function collectLogs(chain: Chain, from: number, to: number, matches: LogMatcher, out: unknown[], maxResults: number): void {
  // A fork holds its blocks from the fork block up (the logs up to the fork block are the remote's: queryLogs asks it).
  for (let h = Math.max(from, chain.firstHeight); h <= Math.min(to, chain.height); h++) {
    if (chain.isPendingEmpty(h)) continue
    const block = chain.blockAt(h)!
    block.transactions.forEach((tx, index) => {
      if (tx.kind !== 'evm') return
      const record = block.records[index]!
      record.logs.forEach((log, i) => {
        if (!matches(log[0], log[1])) return
        if (out.length >= maxResults) throw tooManyLogs(maxResults)
        out.push(formatLog(log, record.firstLogIndex + i, tx, { block, index }))
      })
    })
  }
}

/** Blocks scanned between two looks at the clock. */
const SCAN_CHUNK = 64
/** Scanning time after which a wide query lets the event loop answer others (as EVM runs do, evm/pacer.ts). */
const SCAN_SLICE_MS = 2

/**
 * eth_getLogs and eth_getFilterLogs over blocks `from`..`to` (clamped to the tip):
 * throws RpcError -32000 when toBlock - fromBlock exceeds `logsBlockRange` or more
 * than `logsResultLimit` logs match (README "Limits and guarantees"). A wide scan
 * yields to the event loop every few ms, so other clients are answered meanwhile;
 * blocks dropped by a revert during the scan end it there. On a fork, the logs of
 * blocks up to the fork block are the remote's answer to the same criteria over that
 * part of the range (kept), followed by the fork's own.
 */
export async function queryLogs(chain: Chain, from: number, to: number, criteria: LogCriteria, limits: RpcLimits): Promise<unknown[]> {
  const end = Math.min(to, chain.height)
  // The real node's check and text (reference §6.2): the span toBlock - fromBlock, not the block count.
  if (end - from > limits.logsBlockRange) {
    throw new RpcError(RpcErrorCode.ServerError, `the span between fromBlock and toBlock must be less than or equal to ${limits.logsBlockRange}`)
  }
  const out: unknown[] = []
  const history = chain.fork?.history
  let start = from
  if (history !== undefined && from <= history.height) {
    out.push(...remoteLogs(history, from, Math.min(end, history.height), criteria, limits.logsResultLimit))
    start = history.height + 1
  }
  const matches = logMatcher(criteria)
  let slice = performance.now()
  for (let h = start; h <= end; h += SCAN_CHUNK) {
    collectLogs(chain, h, Math.min(h + SCAN_CHUNK - 1, end), matches, out, limits.logsResultLimit)
    if (performance.now() - slice < SCAN_SLICE_MS) continue
    await new Promise(setImmediate)
    slice = performance.now()
  }
  return out
}

/**
 * The remote's logs of blocks `from`..`to` (at or below the fork block) matching
 * `criteria`: its eth_getLogs answer to the criteria as a filter object (kept).
 * Throws RpcError -32000 past `maxResults`, as the local scan does.
 */
function remoteLogs(history: RemoteHistory, from: number, to: number, criteria: LogCriteria, maxResults: number): unknown[] {
  if (from > to) return []
  const filter: Record<string, unknown> = { fromBlock: toQuantity(from), toBlock: toQuantity(to) }
  if (criteria.addresses.length > 0) filter.address = criteria.addresses.map((a) => toHex(a))
  if (criteria.topics.length > 0) filter.topics = criteria.topics.map((t) => (t === null ? null : t.map((x) => toHex(x))))
  const logs = history.answer('eth_getLogs', [filter])
  if (!Array.isArray(logs)) throw new RpcError(RpcErrorCode.ServerError, `fork: the remote answered eth_getLogs with ${JSON.stringify(logs)?.slice(0, 120)}, not a list of logs`)
  if (logs.length > maxResults) throw tooManyLogs(maxResults)
  return logs
}

/** The error of a log query with more matches than `limit`. */
export function tooManyLogs(limit: number): RpcError {
  return new RpcError(RpcErrorCode.ServerError, `query returned more than ${limit} results (option logsResultLimit)`)
}

/** A range end: `undefined` for latest/absent, else a height (tip + 1 when beyond the tip). */
function endpoint(ctx: ChainContext, value: unknown, index: number): number | undefined {
  if (value === undefined || value === null) return undefined
  const ref = parseBlockReference(value, index)
  if ('tag' in ref && ref.tag !== 'earliest') return undefined
  if ('number' in ref && ref.number > BigInt(ctx.chain.height)) return ctx.chain.height + 1
  return findHeight(ctx, ref)
}

function parseAddresses(value: unknown, index: number): Uint8Array[] {
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) return value.map((a) => parseAddress(a, index))
  return [parseAddress(value, index)]
}

function parseTopics(value: unknown, index: number): (Uint8Array[] | null)[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw invalidArgument(index, 'topics must be an array')
  return value.map((t) => {
    if (t === null) return null
    if (Array.isArray(t)) return t.length === 0 ? null : t.map((x) => parseHash(x, index))
    return [parseHash(t, index)]
  })
}

/** Above this many alternatives a set lookup beats comparing each one. */
const SET_FROM = 8

/**
 * A predicate `(address, topics) => boolean` for `criteria`. Long address lists and
 * topic alternatives are looked up in a set of their hex: a filter of 100,000
 * addresses over 4,000 logs took 10 s of comparisons, all of it holding the event loop.
 */
type LogMatcher = (address: Uint8Array, topics: readonly Uint8Array[]) => boolean

function logMatcher(criteria: LogCriteria): LogMatcher {
  const address = anyOf(criteria.addresses)
  const positions = criteria.topics.map((wanted) => (wanted === null ? undefined : anyOf(wanted)))
  return (logAddress, topics) => {
    if (criteria.addresses.length > 0 && !address(logAddress)) return false
    if (positions.length > topics.length) return false
    return positions.every((matches, i) => matches === undefined || matches(topics[i]!))
  }
}

/** Whether a value is one of `values`: compared one by one for a few, through a set of hex for many. */
function anyOf(values: readonly Uint8Array[]): (value: Uint8Array) => boolean {
  if (values.length < SET_FROM) return (value) => values.some((v) => bytesEqual(v, value))
  const set = new Set(values.map((v) => toHexRaw(v)))
  return (value) => set.has(toHexRaw(value))
}
