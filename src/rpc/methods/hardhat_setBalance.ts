import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddressText, parseQuantity } from '../params.ts'

/** hardhat_setBalance / anvil_setBalance: the gas-token balance in wei (what eth_getBalance shows); true. */
export const hardhat_setBalance: RpcMethod = async (ctx, params) => {
  const [address, wei] = expectParams(params, 2)
  await ctx.controls.setBalance(parseAddressText(address, 0), { gas: parseQuantity(wei, 1) })
  return true
}
