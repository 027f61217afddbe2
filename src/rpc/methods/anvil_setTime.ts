import { alias, defineMethod } from '../declare.ts'
import { numberish } from '../paramSpecs.ts'

/**
 * anvil_setTime / evm_setTime: sets the chain's current time to `timestamp` (Unix
 * seconds, Anvil's unit; Ganache's evm_setTime took milliseconds); answers the clock's
 * new offset from the wall clock in seconds, as Anvil's `evm_set_time` does (foundry
 * crates/anvil/src/eth/api.rs). Blocks still never precede their parent.
 */
export const anvil_setTime = defineMethod({
  name: 'anvil_setTime',
  params: [numberish('timestamp')],
  fork: { kind: 'local' },
  handler: async (ctx, [timestamp]) => {
    await ctx.controls.setTime(timestamp)
    return ctx.controls.timeOffset
  },
})

/** evm_setTime: {@link anvil_setTime} under the name Anvil and Ganache share. */
export const evm_setTime = alias('evm_setTime', anvil_setTime)
