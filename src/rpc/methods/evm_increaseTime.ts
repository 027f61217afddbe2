import { defineMethod } from '../declare.ts'
import { numberish } from '../paramSpecs.ts'

/** evm_increaseTime: moves time forward by a number of seconds; returns the total offset in seconds. */
export const evm_increaseTime = defineMethod({
  name: 'evm_increaseTime',
  params: [numberish('seconds')],
  fork: { kind: 'local' },
  handler: (ctx, [seconds]) => ctx.controls.increaseTime(seconds),
})
