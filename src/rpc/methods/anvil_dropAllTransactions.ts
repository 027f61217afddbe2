import { defineMethod } from '../declare.ts'

/** anvil_dropAllTransactions: empties the pool, EVM and native transactions alike; null (Anvil's answer). */
export const anvil_dropAllTransactions = defineMethod({
  name: 'anvil_dropAllTransactions',
  params: [],
  fork: { kind: 'local' },
  handler: async (ctx) => {
    await ctx.chain.dropPending()
    return null
  },
})
