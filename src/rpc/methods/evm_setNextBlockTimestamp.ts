import { alias, defineMethod } from '../declare.ts'
import { numberish } from '../paramSpecs.ts'

/** evm_setNextBlockTimestamp: the next block's timestamp (Unix seconds), later than the latest block's. */
export const evm_setNextBlockTimestamp = defineMethod({
  name: 'evm_setNextBlockTimestamp',
  params: [numberish('timestamp')],
  fork: { kind: 'local' },
  handler: async (ctx, [timestamp]) => {
    await ctx.controls.setNextBlockTimestamp(timestamp)
    return null
  },
})

/** anvil_setNextBlockTimestamp: {@link evm_setNextBlockTimestamp} under Anvil's name. */
export const anvil_setNextBlockTimestamp = alias('anvil_setNextBlockTimestamp', evm_setNextBlockTimestamp)
