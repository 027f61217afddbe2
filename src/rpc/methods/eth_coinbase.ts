import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { toHex } from '../../util/hex.ts'

/** eth_coinbase: the zero address, the real node's (reference §6.2), or what hardhat_setCoinbase set. */
export const eth_coinbase: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return toHex(ctx.chain.blockSettings.coinbase)
}
