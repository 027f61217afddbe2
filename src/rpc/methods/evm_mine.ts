import type { RpcMethod } from '../context.ts'
import { expectParams, parseNumberish } from '../params.ts'

/**
 * evm_mine: mines one block, with an optional timestamp (Hardhat: a number or
 * QUANTITY; Ganache: `{ timestamp, blocks }`). Returns "0x0" as Hardhat does.
 */
export const evm_mine: RpcMethod = async (ctx, params) => {
  const [arg] = expectParams(params, 0, 1)
  let blocks = 1
  let timestamp: number | undefined
  if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) {
    const o = arg as Record<string, unknown>
    if (o.timestamp !== undefined) timestamp = parseNumberish(o.timestamp, 0)
    if (o.blocks !== undefined) blocks = parseNumberish(o.blocks, 0)
  } else if (arg !== undefined && arg !== null) {
    timestamp = parseNumberish(arg, 0)
  }
  if (timestamp !== undefined) await ctx.controls.setNextBlockTimestamp(timestamp)
  await ctx.controls.mine(blocks)
  return '0x0'
}
