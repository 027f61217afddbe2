import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddress } from '../params.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_getTransactionCount: EVM nonce as of the block; with `pending`, the pool's next nonce (reference §6.2). */
export const eth_getTransactionCount: RpcMethod = (ctx, params) => {
  const [address, block] = expectParams(params, 2)
  const a = parseAddress(address, 0)
  if (block === 'pending') return toQuantity(ctx.chain.pendingNonce(a))
  return toQuantity(ctx.chain.account(a, stateHeight(ctx, block, 1)).nonce)
}
