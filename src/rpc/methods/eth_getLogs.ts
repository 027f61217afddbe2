import type { RpcMethod } from '../context.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { expectParams } from '../params.ts'
import { matchingLogs, parseLogCriteria } from '../logQuery.ts'

/** Widest block range one eth_getLogs may span (reference §6.2). */
const MAX_RANGE = 100_000

/**
 * eth_getLogs: logs of included transactions matching a filter object
 * { fromBlock, toBlock | blockHash, address, topics }; `[]` when nothing matches.
 * Absent ends mean the latest block.
 */
export const eth_getLogs: RpcMethod = (ctx, params) => {
  const [filter] = expectParams(params, 1)
  const criteria = parseLogCriteria(ctx, filter, 0)
  const tip = ctx.chain.height
  if (criteria.blockHeight !== undefined) return matchingLogs(ctx.chain, criteria.blockHeight, criteria.blockHeight, criteria)
  const from = criteria.fromBlock ?? tip
  const to = Math.min(criteria.toBlock ?? tip, tip)
  if (to - from > MAX_RANGE) {
    throw new RpcError(RpcErrorCode.ServerError, `the span between fromBlock and toBlock must be less than or equal to ${MAX_RANGE}`)
  }
  return matchingLogs(ctx.chain, from, to, criteria)
}
