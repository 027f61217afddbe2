import type { RpcMethod } from '../context.ts'
import { expectParams, parseNumberish } from '../params.ts'

/** evm_setNextBlockTimestamp: the next block's timestamp (Unix seconds), later than the latest block's. */
export const evm_setNextBlockTimestamp: RpcMethod = async (ctx, params) => {
  const [timestamp] = expectParams(params, 1)
  await ctx.controls.setNextBlockTimestamp(parseNumberish(timestamp, 0))
  return null
}
