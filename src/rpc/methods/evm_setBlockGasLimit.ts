import { alias, defineMethod } from '../declare.ts'
import { quantity } from '../paramSpecs.ts'

/**
 * evm_setBlockGasLimit / anvil_setBlockGasLimit: what GASLIMIT reads in later blocks and the most gas the pool then takes per transaction, a QUANTITY from 1 to 2^64 - 1, never above the 6,000,000 per-transaction cap; true.
 * Hardhat's and Anvil's answer; the block objects keep gasLimit 6,000,000 (`DevnetControls.setBlockGasLimit`).
 */
export const evm_setBlockGasLimit = defineMethod({
  name: 'evm_setBlockGasLimit',
  params: [quantity('gasLimit')],
  fork: { kind: 'local' },
  handler: async (ctx, [gasLimit]) => {
    await ctx.controls.setBlockGasLimit(gasLimit)
    return true as const
  },
})

/** anvil_setBlockGasLimit: {@link evm_setBlockGasLimit} under Anvil's name. */
export const anvil_setBlockGasLimit = alias('anvil_setBlockGasLimit', evm_setBlockGasLimit)
