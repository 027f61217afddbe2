import { defineMethod } from '../declare.ts'
import { address } from '../paramSpecs.ts'

/** anvil_removePoolTransactions(address): removes every pending EVM transaction sent by `address`; null (Anvil's answer). */
export const anvil_removePoolTransactions = defineMethod({
  name: 'anvil_removePoolTransactions',
  params: [address('address')],
  fork: { kind: 'local' },
  handler: async (ctx, [sender]) => {
    await ctx.chain.dropPending({ sender })
    return null
  },
})
