import { defineMethod } from '../declare.ts'
import { boolean } from '../paramSpecs.ts'

/** evm_setAutomine: turns automine on or off; true. */
export const evm_setAutomine = defineMethod({
  name: 'evm_setAutomine',
  params: [boolean('on')],
  fork: { kind: 'local' },
  handler: async (ctx, [on]) => {
    await ctx.controls.setAutomine(on)
    return true as const
  },
})
