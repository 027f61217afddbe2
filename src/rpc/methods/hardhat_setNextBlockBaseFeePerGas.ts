import type { RpcMethod } from '../context.ts'
import { expectParams, parseQuantity } from '../params.ts'

/**
 * hardhat_setNextBlockBaseFeePerGas / anvil_setNextBlockBaseFeePerGas: the next
 * block's base fee in wei (QUANTITY), on a hardfork with EIP-1559 only
 * (`DevnetControls.setNextBlockBaseFeePerGas`); true.
 */
export const hardhat_setNextBlockBaseFeePerGas: RpcMethod = async (ctx, params) => {
  const [baseFee] = expectParams(params, 1)
  await ctx.controls.setNextBlockBaseFeePerGas(parseQuantity(baseFee, 0))
  return true
}
