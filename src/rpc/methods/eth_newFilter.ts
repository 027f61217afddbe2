import { defineMethod } from '../declare.ts'
import { logFilter } from '../paramSpecs.ts'

/**
 * eth_newFilter: installs a log filter; eth_getFilterChanges then reports logs of
 * blocks mined after it. Local on a fork: the blocks it reports are the fork's own
 * (a blockHash in the criteria is still placed through the remote, rpc/logQuery.ts).
 */
export const eth_newFilter = defineMethod({
  name: 'eth_newFilter',
  params: [logFilter('filter')],
  fork: { kind: 'local' },
  handler: (ctx, [criteria]) => ctx.filters.installLogs(ctx.chain, criteria),
})
