import { findBlock, type RpcContext, type RpcMethod } from '../context.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { expectParams, parseAddress, parseBlockReference, parseHash } from '../params.ts'
import { formatLog } from '../format.ts'
import type { ChainBlock } from '../../chain/block.ts'
import { bytesEqual } from '../../util/hex.ts'

/** Widest block range one eth_getLogs may span (reference §6.2). */
const MAX_RANGE = 100_000

/**
 * eth_getLogs: logs of included transactions matching a filter object
 * { fromBlock, toBlock | blockHash, address (one or many), topics (positions of
 * null, one topic or alternatives) }. `[]` when nothing matches.
 */
export const eth_getLogs: RpcMethod = (ctx, params) => {
  const [filter] = expectParams(params, 1)
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw invalidArgument(0, 'json: cannot unmarshal non-object into Go value of type filters.FilterCriteria')
  }
  const f = filter as Record<string, unknown>
  const addresses = parseAddresses(f.address)
  const topics = parseTopics(f.topics)
  const blocks = selectBlocks(ctx, f)
  const out: ReturnType<typeof formatLog>[] = []
  for (const block of blocks) {
    block.transactions.forEach((tx, index) => {
      const record = block.records[index]!
      record.logs.forEach((log, i) => {
        const [address, logTopics] = log
        if (addresses.length > 0 && !addresses.some((a) => bytesEqual(a, address))) return
        if (!topicsMatch(topics, logTopics)) return
        out.push(formatLog(log, record.firstLogIndex + i, tx, { block, index }))
      })
    })
  }
  return out
}

function selectBlocks(ctx: RpcContext, f: Record<string, unknown>): ChainBlock[] {
  if (f.blockHash !== undefined && f.blockHash !== null) {
    if (f.fromBlock !== undefined || f.toBlock !== undefined) {
      throw invalidArgument(0, 'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
    }
    const block = findBlock(ctx, { hash: parseHash(f.blockHash, 0) })
    if (block === undefined) throw new RpcError(RpcErrorCode.ServerError, 'unknown block')
    return [block]
  }
  const from = f.fromBlock === undefined || f.fromBlock === null ? ctx.chain.height : endpoint(ctx, f.fromBlock)
  const to =
    f.toBlock === undefined || f.toBlock === null ? ctx.chain.height : Math.min(endpoint(ctx, f.toBlock), ctx.chain.height)
  if (to - from > MAX_RANGE) {
    throw new RpcError(
      RpcErrorCode.ServerError,
      `the span between fromBlock and toBlock must be less than or equal to ${MAX_RANGE}`,
    )
  }
  const blocks: ChainBlock[] = []
  for (let h = from; h <= to; h++) blocks.push(ctx.chain.blockAt(h)!)
  return blocks
}

/**
 * A range end as a height; a number above the tip reads as tip + 1. go-ethereum stops
 * at the first missing header, so a range ending above the tip ends at the tip (the
 * caller clamps `toBlock`) and one starting above it is empty, not the tip's logs.
 */
function endpoint(ctx: RpcContext, value: unknown): number {
  const ref = parseBlockReference(value, 0)
  if ('number' in ref && ref.number > BigInt(ctx.chain.height)) return ctx.chain.height + 1
  return findBlock(ctx, ref)?.header.height ?? ctx.chain.height
}

function parseAddresses(value: unknown): Uint8Array[] {
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) return value.map((a) => parseAddress(a, 0))
  return [parseAddress(value, 0)]
}

function parseTopics(value: unknown): (Uint8Array[] | null)[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw invalidArgument(0, 'topics must be an array')
  return value.map((t) => {
    if (t === null) return null
    if (Array.isArray(t)) return t.length === 0 ? null : t.map((x) => parseHash(x, 0))
    return [parseHash(t, 0)]
  })
}

function topicsMatch(filter: (Uint8Array[] | null)[], topics: readonly Uint8Array[]): boolean {
  if (filter.length > topics.length) return false
  return filter.every((wanted, i) => wanted === null || wanted.some((w) => bytesEqual(w, topics[i]!)))
}
