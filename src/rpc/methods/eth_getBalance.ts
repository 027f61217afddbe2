import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddress } from '../params.ts'
import { historyBelow } from '../forkHistory.ts'
import { toHex, toQuantity } from '../../util/hex.ts'

/** eth_getBalance: gas-token balance in wei (v2, 18 decimals; reference §4.1) as of the block given; below a fork's block, the remote's answer (kept). */
export const eth_getBalance: RpcMethod = (ctx, params) => {
  const [address, block] = expectParams(params, 2)
  const a = parseAddress(address, 0)
  const height = stateHeight(ctx, block, 1)
  const history = historyBelow(ctx.chain, height)
  if (history !== undefined) return history.answer('eth_getBalance', [toHex(a), toQuantity(height)])
  return toQuantity(ctx.chain.account(a, height).gas)
}
