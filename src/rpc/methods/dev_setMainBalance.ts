import { defineMethod } from '../declare.ts'
import { anyAddress, quantity } from '../paramSpecs.ts'

/**
 * dev_setMainBalance (dualnet): the main-token balance in v2 units (1e-9 main, the
 * `main` of balancev2) of an address in either rendering; true.
 */
export const dev_setMainBalance = defineMethod({
  name: 'dev_setMainBalance',
  params: [anyAddress('address'), quantity('amount')],
  fork: { kind: 'local' },
  handler: async (ctx, [address, amount]) => {
    await ctx.controls.setBalance(address, { main: amount })
    return true as const
  },
})
