import { anvilAlias, defineMethod } from '../declare.ts'
import { anyAddress } from '../paramSpecs.ts'

/** hardhat_setCoinbase / anvil_setCoinbase: COINBASE of later blocks and eth_coinbase (fees still go to governance); true. See `DevnetControls.setCoinbase`. */
export const hardhat_setCoinbase = defineMethod({
  name: 'hardhat_setCoinbase',
  params: [anyAddress('address')],
  fork: { kind: 'local' },
  handler: async (ctx, [address]) => {
    await ctx.controls.setCoinbase(address)
    return true as const
  },
})

/** anvil_setCoinbase: {@link hardhat_setCoinbase} under Anvil's name, answering null as Anvil does. */
export const anvil_setCoinbase = anvilAlias('anvil_setCoinbase', hardhat_setCoinbase)
