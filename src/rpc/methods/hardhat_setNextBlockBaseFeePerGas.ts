import { anvilAlias, defineMethod } from '../declare.ts'
import { quantity } from '../paramSpecs.ts'

/**
 * hardhat_setNextBlockBaseFeePerGas / anvil_setNextBlockBaseFeePerGas: the next block's base fee in wei, what BASEFEE reads in it and the least gas price the pool takes for it, on a hardfork with EIP-1559 only (later blocks: 0 again); true.
 * See `DevnetControls.setNextBlockBaseFeePerGas`.
 */
export const hardhat_setNextBlockBaseFeePerGas = defineMethod({
  name: 'hardhat_setNextBlockBaseFeePerGas',
  params: [quantity('baseFee')],
  fork: { kind: 'local' },
  handler: async (ctx, [baseFee]) => {
    await ctx.controls.setNextBlockBaseFeePerGas(baseFee)
    return true as const
  },
})

/** anvil_setNextBlockBaseFeePerGas: {@link hardhat_setNextBlockBaseFeePerGas} under Anvil's name, answering null as Anvil does. */
export const anvil_setNextBlockBaseFeePerGas = anvilAlias('anvil_setNextBlockBaseFeePerGas', hardhat_setNextBlockBaseFeePerGas)
