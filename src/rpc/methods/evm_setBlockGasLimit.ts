import type { RpcMethod } from '../context.ts'
import { expectParams, parseQuantity } from '../params.ts'

/**
 * evm_setBlockGasLimit / anvil_setBlockGasLimit: the gas limit of later blocks, a
 * QUANTITY from 1 to 2^64 - 1; true (Hardhat's and Anvil's answer). What it changes
 * and what it does not (the 6,000,000 per-transaction cap): `DevnetControls.setBlockGasLimit`.
 */
export const evm_setBlockGasLimit: RpcMethod = async (ctx, params) => {
  const [gasLimit] = expectParams(params, 1)
  await ctx.controls.setBlockGasLimit(parseQuantity(gasLimit, 0))
  return true
}
