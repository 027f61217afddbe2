import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddress } from '../params.ts'
import { historyBelow } from '../forkHistory.ts'
import { toHex, toQuantity } from '../../util/hex.ts'

/** eth_getTransactionCount: EVM nonce as of the block; with `pending`, the pool's next nonce (reference §6.2); below a fork's block, the remote's answer (kept). */
export const eth_getTransactionCount: RpcMethod = (ctx, params) => {
  const [address, block] = expectParams(params, 2)
  const a = parseAddress(address, 0)
  if (block === 'pending') return toQuantity(ctx.chain.pendingNonce(a))
  const height = stateHeight(ctx, block, 1)
  const history = historyBelow(ctx.chain, height)
  if (history !== undefined) return history.answer('eth_getTransactionCount', [toHex(a), toQuantity(height)])
  return toQuantity(ctx.chain.account(a, height).nonce)
}
