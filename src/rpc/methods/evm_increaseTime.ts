import { alias, defineMethod } from '../declare.ts'
import { numberish } from '../paramSpecs.ts'

/** evm_increaseTime: moves time forward by a number of seconds; returns the total offset in seconds. */
export const evm_increaseTime = defineMethod({
  name: 'evm_increaseTime',
  params: [numberish('seconds')],
  fork: { kind: 'local' },
  handler: (ctx, [seconds]) => ctx.controls.increaseTime(seconds),
})

/** anvil_increaseTime: {@link evm_increaseTime} under Anvil's name. */
export const anvil_increaseTime = alias('anvil_increaseTime', evm_increaseTime)
