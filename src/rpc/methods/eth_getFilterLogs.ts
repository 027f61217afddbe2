import type { RpcMethod } from '../context.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { expectParams, parseQuantity } from '../params.ts'
import { queryLogs } from '../logQuery.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_getFilterLogs: every log matching a log filter's criteria over its whole range (within the log-query limits). */
export const eth_getFilterLogs: RpcMethod = (ctx, params) => {
  const [id] = expectParams(params, 1)
  const filter = ctx.filters.get(toQuantity(parseQuantity(id, 0)))
  if (filter === undefined || filter.kind !== 'logs') throw new RpcError(RpcErrorCode.ServerError, 'filter not found')
  const { criteria } = filter
  const tip = ctx.chain.height
  return queryLogs(ctx.chain, criteria.fromBlock ?? tip, criteria.toBlock ?? tip, criteria, ctx.limits)
}
