import type { RpcMethod } from '../context.ts'
import { expectParams, parseNumberish } from '../params.ts'

/** evm_setIntervalMining: mines a block every N milliseconds (0 stops); true. */
export const evm_setIntervalMining: RpcMethod = async (ctx, params) => {
  const [ms] = expectParams(params, 1)
  await ctx.controls.setIntervalMining(parseNumberish(ms, 0))
  return true
}
