import type { RpcMethod } from '../context.ts'
import { expectParams, parseNumberish } from '../params.ts'

/**
 * hardhat_mine / anvil_mine: mines `blocks` blocks (default 1) whose timestamps after
 * the first are `interval` seconds apart (default 1); true.
 */
export const hardhat_mine: RpcMethod = async (ctx, params) => {
  const [blocks, interval] = expectParams(params, 0, 2)
  const count = blocks === undefined || blocks === null ? 1 : parseNumberish(blocks, 0)
  const spacing = interval === undefined || interval === null ? 1 : parseNumberish(interval, 1)
  await ctx.controls.mine(count, spacing)
  return true
}
