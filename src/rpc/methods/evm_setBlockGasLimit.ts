import type { RpcMethod } from '../context.ts'
import { expectParams, parseQuantity } from '../params.ts'

/**
 * evm_setBlockGasLimit / anvil_setBlockGasLimit: what GASLIMIT reads in later blocks and the most gas the pool then takes per transaction, a QUANTITY from 1 to 2^64 - 1, never above the 6,000,000 per-transaction cap; true.
 * Hardhat's and Anvil's answer; the block objects keep gasLimit 6,000,000 (`DevnetControls.setBlockGasLimit`).
 */
export const evm_setBlockGasLimit: RpcMethod = async (ctx, params) => {
  const [gasLimit] = expectParams(params, 1)
  await ctx.controls.setBlockGasLimit(parseQuantity(gasLimit, 0))
  return true
}
