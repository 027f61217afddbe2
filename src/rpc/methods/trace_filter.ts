import { defineMethod } from '../declare.ts'
import { json } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { describeValue } from '../../errors/describe.ts'
import { parseAddress, parseBlockReference } from '../params.ts'
import { findHeight } from '../blockResolution.ts'
import type { ParityTrace, RpcTraceFilter } from '../../core/rpcObjects.ts'
import { toHex } from '../../util/hex.ts'

const count = (value: unknown, name: string): number | undefined => {
  if (value === undefined || value === null) return undefined
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value) ? Number.parseInt(value, 16) : Number.NaN
  if (!Number.isSafeInteger(n) || n < 0) throw invalidArgument(0, `${name}: not a count`)
  return n
}

const addresses = (value: unknown, name: string): Set<string> => {
  if (value === undefined || value === null) return new Set()
  if (!Array.isArray(value)) throw invalidArgument(0, `${name}: an array of addresses`)
  return new Set(value.map((a: unknown) => toHex(parseAddress(a, 0))))
}

/**
 * trace_filter(filter): the Parity traces (rpc/parityTrace.ts) of the blocks
 * `fromBlock`..`toBlock` (default `latest` both; tags or quantities) whose
 * `action.from` is in `fromAddress` and whose `action.to` (a create's new address) is in
 * `toAddress`, as Erigon matches them (turbo/jsonrpc trace_filtering.go `Filter`):
 * `mode` `union` (default: either set matching is enough; an empty set matches
 * nothing unless both are empty) or `intersection` (both; an empty set matches all);
 * then `after` traces skipped and at most `count` kept.
 *
 * Bounded with the devnet's log limits (rpc/limits.ts): the span toBlock - fromBlock
 * at most `logsBlockRange`, and at most `logsResultLimit` traces matched, each -32000
 * past it, as eth_getLogs; every transaction is replayed under the trace limits. Only
 * the devnet's own blocks are traced: on a fork, the blocks at or below the fork
 * block are skipped (not asked of the remote).
 */
export const trace_filter = defineMethod({
  name: 'trace_filter',
  params: [json<RpcTraceFilter>('filter')],
  fork: { kind: 'local' },
  handler: async (ctx, [filter], { scope }) => {
    if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw invalidArgument(0, 'filter: an object')
    const f = filter as Record<string, unknown>
    const height = (value: unknown, fallback: number): number => {
      if (value === undefined || value === null) return fallback
      return findHeight(ctx, parseBlockReference(value, 0)) ?? ctx.chain.height
    }
    const from = height(f.fromBlock, ctx.chain.height)
    const to = Math.min(height(f.toBlock, ctx.chain.height), ctx.chain.height)
    if (from > to) throw invalidArgument(0, 'fromBlock is after toBlock')
    if (to - from > ctx.limits.logsBlockRange) {
      throw new RpcError(RpcErrorCode.ServerError, `the span between fromBlock and toBlock must be less than or equal to ${ctx.limits.logsBlockRange}`)
    }
    const fromSet = addresses(f.fromAddress, 'fromAddress')
    const toSet = addresses(f.toAddress, 'toAddress')
    const mode = f.mode ?? 'union'
    if (mode !== 'union' && mode !== 'intersection') throw invalidArgument(0, `mode: ${describeValue(mode)} is neither union nor intersection`)
    const after = count(f.after, 'after') ?? 0
    const most = count(f.count, 'count') ?? Number.POSITIVE_INFINITY
    const matches = (trace: ParityTrace): boolean => {
      const action = trace.action as { from: string; to?: string }
      const target = action.to ?? (trace.result as { address?: string } | null)?.address
      const fromOk = fromSet.has(action.from)
      const toOk = target !== undefined && toSet.has(target)
      if (mode === 'intersection') return (fromSet.size === 0 || fromOk) && (toSet.size === 0 || toOk)
      if (fromSet.size === 0 && toSet.size === 0) return true
      return fromOk || toOk
    }
    const { traceBlock } = await import('../parityTrace.ts')
    const out: ParityTrace[] = []
    let skipped = 0
    const floor = (ctx.chain.fork?.history?.height ?? -1) + 1
    for (let h = Math.max(from, floor); h <= to && out.length < most; h++) {
      const block = ctx.chain.blockAt(h)
      if (block === undefined) continue
      for (const trace of await traceBlock(ctx, scope, block)) {
        if (!matches(trace)) continue
        if (skipped < after) {
          skipped++
          continue
        }
        if (out.length >= most) break
        if (out.length >= ctx.limits.logsResultLimit) throw new RpcError(RpcErrorCode.ServerError, `query returned more than ${ctx.limits.logsResultLimit} results`)
        out.push(trace)
      }
    }
    return out
  },
})
