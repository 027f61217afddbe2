import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** anvil_dropAllTransactions: empties the pool, EVM and native transactions alike; null (Anvil's answer). */
export const anvil_dropAllTransactions: RpcMethod = async (ctx, params) => {
  expectParams(params, 0)
  await ctx.chain.dropPending()
  return null
}
