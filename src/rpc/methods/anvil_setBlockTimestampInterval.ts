import type { RpcMethod } from '../context.ts'
import { expectParams, parseNumberish } from '../params.ts'

/** anvil_setBlockTimestampInterval: each new block is stamped this many seconds after its parent; null. */
export const anvil_setBlockTimestampInterval: RpcMethod = async (ctx, params) => {
  const [seconds] = expectParams(params, 1)
  await ctx.controls.setBlockTimestampInterval(parseNumberish(seconds, 0))
  return null
}
