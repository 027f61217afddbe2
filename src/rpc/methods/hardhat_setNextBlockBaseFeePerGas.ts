import type { RpcMethod } from '../context.ts'
import { expectParams, parseQuantity } from '../params.ts'

/**
 * hardhat_setNextBlockBaseFeePerGas / anvil_setNextBlockBaseFeePerGas: the next block's base fee in wei, what BASEFEE reads in it and the least gas price the pool takes for it, on a hardfork with EIP-1559 only (later blocks: 0 again); true.
 * See `DevnetControls.setNextBlockBaseFeePerGas`.
 */
export const hardhat_setNextBlockBaseFeePerGas: RpcMethod = async (ctx, params) => {
  const [baseFee] = expectParams(params, 1)
  await ctx.controls.setNextBlockBaseFeePerGas(parseQuantity(baseFee, 0))
  return true
}
