import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseLogCriteria, queryLogs } from '../logQuery.ts'

/**
 * eth_getLogs: logs of included transactions matching a filter object
 * { fromBlock, toBlock | blockHash, address, topics }; `[]` when nothing matches.
 * Absent ends mean the latest block. Limits: `logsBlockRange` blocks and
 * `logsResultLimit` logs per query (README "Limits and guarantees").
 */
export const eth_getLogs: RpcMethod = (ctx, params) => {
  const [filter] = expectParams(params, 1)
  const criteria = parseLogCriteria(ctx, filter, 0)
  const tip = ctx.chain.height
  if (criteria.blockHeight !== undefined) return queryLogs(ctx.chain, criteria.blockHeight, criteria.blockHeight, criteria, ctx.limits)
  return queryLogs(ctx.chain, criteria.fromBlock ?? tip, criteria.toBlock ?? tip, criteria, ctx.limits)
}
