import { defineMethod } from '../declare.ts'
import { json, optional } from '../paramSpecs.ts'

/**
 * miner_start (Ganache, go-ethereum): turns automine on; true. Ganache's optional
 * thread count is taken and has no meaning here. viem's `setAutomine(true)` sends it in
 * mode `ganache` (viem src/actions/test/setAutomine.ts).
 */
export const miner_start = defineMethod({
  name: 'miner_start',
  params: [optional(json<number | string>('threads'))],
  fork: { kind: 'local' },
  handler: async (ctx) => {
    await ctx.controls.setAutomine(true)
    return true as const
  },
})
