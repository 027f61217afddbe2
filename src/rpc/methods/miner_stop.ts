import { defineMethod } from '../declare.ts'

/** miner_stop (Ganache, go-ethereum): turns automine off; true. viem's `setAutomine(false)` sends it in mode `ganache`. */
export const miner_stop = defineMethod({
  name: 'miner_stop',
  params: [],
  fork: { kind: 'local' },
  handler: async (ctx) => {
    await ctx.controls.setAutomine(false)
    return true as const
  },
})
