import { defineMethod } from '../declare.ts'

/** eth_newBlockFilter: installs a filter reporting the hashes of new blocks. */
export const eth_newBlockFilter = defineMethod({
  name: 'eth_newBlockFilter',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ctx.filters.installBlocks(ctx.chain),
})
