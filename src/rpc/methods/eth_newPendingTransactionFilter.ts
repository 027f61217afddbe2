import { defineMethod } from '../declare.ts'

/** eth_newPendingTransactionFilter: installs a filter reporting the hashes of newly accepted transactions. */
export const eth_newPendingTransactionFilter = defineMethod({
  name: 'eth_newPendingTransactionFilter',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ctx.filters.installPending(ctx.chain),
})
