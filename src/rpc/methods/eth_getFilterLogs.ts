import { defineMethod } from '../declare.ts'
import { filterId } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { queryLogs } from '../logQuery.ts'
import type { RpcLog } from '../../core/rpcObjects.ts'

/**
 * eth_getFilterLogs: every log matching a log filter's criteria over its whole range
 * (within the log-query limits). On a fork, the remote's logs up to the fork block,
 * then the fork's own (rpc/logQuery.ts).
 */
export const eth_getFilterLogs = defineMethod({
  name: 'eth_getFilterLogs',
  params: [filterId('id')],
  fork: { kind: 'logs' },
  handler: async (ctx, [id]) => {
    const filter = ctx.filters.get(id)
    if (filter === undefined || filter.kind !== 'logs') throw new RpcError(RpcErrorCode.ServerError, 'filter not found')
    const { criteria } = filter
    const tip = ctx.chain.height
    return (await queryLogs(ctx.chain, criteria.fromBlock ?? tip, criteria.toBlock ?? tip, criteria, ctx.limits)) as RpcLog[]
  },
})
