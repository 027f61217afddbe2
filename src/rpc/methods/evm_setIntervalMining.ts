import { defineMethod } from '../declare.ts'
import { numberish } from '../paramSpecs.ts'

/** evm_setIntervalMining: mines a block every N milliseconds (0 stops); true. */
export const evm_setIntervalMining = defineMethod({
  name: 'evm_setIntervalMining',
  params: [numberish('ms')],
  fork: { kind: 'local' },
  handler: async (ctx, [ms]) => {
    await ctx.controls.setIntervalMining(ms)
    return true as const
  },
})
