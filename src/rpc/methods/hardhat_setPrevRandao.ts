import type { RpcMethod } from '../context.ts'
import { expectParams, parseFixedData } from '../params.ts'

/**
 * hardhat_setPrevRandao: the next block's PREVRANDAO, 32 bytes of DATA (the helper
 * pads its number to 32 bytes), on a post-merge hardfork only
 * (`DevnetControls.setPrevRandao`); true. Anvil has no such method.
 */
export const hardhat_setPrevRandao: RpcMethod = async (ctx, params) => {
  const [prevRandao] = expectParams(params, 1)
  await ctx.controls.setPrevRandao(parseFixedData(prevRandao, 0, 32, 'PREVRANDAO'))
  return true
}
