import type { RpcMethod } from '../context.ts'
import { expectParams, parseFixedData } from '../params.ts'

/**
 * hardhat_setPrevRandao: the next block's PREVRANDAO, 32 bytes of DATA, on a post-merge hardfork only (later blocks: 0 again); true.
 * The helper pads its number to 32 bytes; Anvil has no such method (`DevnetControls.setPrevRandao`).
 */
export const hardhat_setPrevRandao: RpcMethod = async (ctx, params) => {
  const [prevRandao] = expectParams(params, 1)
  await ctx.controls.setPrevRandao(parseFixedData(prevRandao, 0, 32, 'PREVRANDAO'))
  return true
}
