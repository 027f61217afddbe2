import type { RpcMethod } from '../context.ts'
import { expectParams, parseNumberish } from '../params.ts'

/** evm_increaseTime: moves time forward by a number of seconds; returns the total offset in seconds. */
export const evm_increaseTime: RpcMethod = (ctx, params) => {
  const [seconds] = expectParams(params, 1)
  return ctx.controls.increaseTime(parseNumberish(seconds, 0))
}
