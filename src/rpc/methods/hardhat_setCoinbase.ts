import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddressText } from '../params.ts'

/** hardhat_setCoinbase / anvil_setCoinbase: COINBASE of later blocks and eth_coinbase (fees still go to governance); true. See `DevnetControls.setCoinbase`. */
export const hardhat_setCoinbase: RpcMethod = async (ctx, params) => {
  const [address] = expectParams(params, 1)
  await ctx.controls.setCoinbase(parseAddressText(address, 0))
  return true
}
