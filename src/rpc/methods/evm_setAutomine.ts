import type { RpcMethod } from '../context.ts'
import { expectParams, parseBoolean } from '../params.ts'

/** evm_setAutomine: turns automine on or off; true. */
export const evm_setAutomine: RpcMethod = async (ctx, params) => {
  const [on] = expectParams(params, 1)
  await ctx.controls.setAutomine(parseBoolean(on, 0))
  return true
}
