import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_chainId: the EIP-155 chain id ("0x3039" on solo, reference §6.2). */
export const eth_chainId: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return toQuantity(ctx.chainId)
}
