import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddress } from '../params.ts'

/** anvil_removePoolTransactions(address): removes every pending EVM transaction sent by `address`; null (Anvil's answer). */
export const anvil_removePoolTransactions: RpcMethod = async (ctx, params) => {
  const [address] = expectParams(params, 1)
  await ctx.chain.dropPending({ sender: parseAddress(address, 0) })
  return null
}
