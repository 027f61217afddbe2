import { defineMethod } from '../declare.ts'
import { logFilter } from '../paramSpecs.ts'
import { queryLogs } from '../logQuery.ts'
import type { RpcLog } from '../../core/rpcObjects.ts'

/**
 * eth_getLogs: logs of included transactions matching a filter object
 * { fromBlock, toBlock | blockHash, address, topics }; `[]` when nothing matches.
 * Absent ends mean the latest block. Limits: `logsBlockRange` blocks and
 * `logsResultLimit` logs per query (README "Limits and guarantees"). On a fork, the
 * remote's logs up to the fork block, then the fork's own (rpc/logQuery.ts).
 */
export const eth_getLogs = defineMethod({
  name: 'eth_getLogs',
  params: [logFilter('filter')],
  fork: { kind: 'logs' },
  handler: async (ctx, [criteria]) => {
    const tip = ctx.chain.height
    const from = criteria.blockHeight ?? criteria.fromBlock ?? tip
    const to = criteria.blockHeight ?? criteria.toBlock ?? tip
    return (await queryLogs(ctx.chain, from, to, criteria, ctx.limits)) as RpcLog[]
  },
})
