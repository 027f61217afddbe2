import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddressText, parseQuantity } from '../params.ts'

/** hardhat_setNonce / anvil_setNonce: sets the EVM nonce of an address; true. */
export const hardhat_setNonce: RpcMethod = async (ctx, params) => {
  const [address, nonce] = expectParams(params, 2)
  await ctx.controls.setNonce(parseAddressText(address, 0), parseQuantity(nonce, 1))
  return true
}
