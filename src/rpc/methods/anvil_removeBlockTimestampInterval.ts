import { defineMethod } from '../declare.ts'

/** anvil_removeBlockTimestampInterval: blocks follow the clock again; true. */
export const anvil_removeBlockTimestampInterval = defineMethod({
  name: 'anvil_removeBlockTimestampInterval',
  params: [],
  fork: { kind: 'local' },
  handler: async (ctx) => {
    await ctx.controls.setBlockTimestampInterval(undefined)
    return true as const
  },
})
