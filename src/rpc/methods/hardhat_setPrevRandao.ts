import { alias, defineMethod } from '../declare.ts'
import { fixedData } from '../paramSpecs.ts'

/**
 * hardhat_setPrevRandao: the next block's PREVRANDAO, 32 bytes of DATA, on a post-merge hardfork only (later blocks: 0 again); true.
 * The helper pads its number to 32 bytes; Anvil has no such method (`DevnetControls.setPrevRandao`).
 */
export const hardhat_setPrevRandao = defineMethod({
  name: 'hardhat_setPrevRandao',
  params: [fixedData('prevRandao', 32, 'PREVRANDAO')],
  fork: { kind: 'local' },
  handler: async (ctx, [prevRandao]) => {
    await ctx.controls.setPrevRandao(prevRandao)
    return true as const
  },
})

/** anvil_setNextBlockPrevRandao: {@link hardhat_setPrevRandao} under Anvil's name. */
export const anvil_setNextBlockPrevRandao = alias('anvil_setNextBlockPrevRandao', hardhat_setPrevRandao)
