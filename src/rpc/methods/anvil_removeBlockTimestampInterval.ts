import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** anvil_removeBlockTimestampInterval: blocks follow the clock again; true. */
export const anvil_removeBlockTimestampInterval: RpcMethod = async (ctx, params) => {
  expectParams(params, 0)
  await ctx.controls.setBlockTimestampInterval(undefined)
  return true
}
