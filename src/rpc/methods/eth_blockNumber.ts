import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_blockNumber: height of the latest block. */
export const eth_blockNumber: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return toQuantity(ctx.chain.height)
}
