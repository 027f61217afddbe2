import { defineMethod } from '../declare.ts'
import { numberish } from '../paramSpecs.ts'

/** anvil_setBlockTimestampInterval: each new block is stamped this many seconds after its parent; null. */
export const anvil_setBlockTimestampInterval = defineMethod({
  name: 'anvil_setBlockTimestampInterval',
  params: [numberish('seconds')],
  fork: { kind: 'local' },
  handler: async (ctx, [seconds]) => {
    await ctx.controls.setBlockTimestampInterval(seconds)
    return null
  },
})
