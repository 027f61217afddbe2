import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { invalidArgument } from '../errors.ts'
import { expectParams, parseAddress } from '../params.ts'
import { historyBelow } from '../forkHistory.ts'
import { toHex, toQuantity } from '../../util/hex.ts'

/** eth_getCode: code at the address as of the block; the tag `pending` is an invalid parameter (spec, Errors 7); below a fork's block, the remote's answer (kept). */
export const eth_getCode: RpcMethod = (ctx, params) => {
  const [address, block] = expectParams(params, 2)
  const a = parseAddress(address, 0)
  if (block === 'pending') throw invalidArgument(1, 'pending block is not supported')
  const height = stateHeight(ctx, block, 1)
  const history = historyBelow(ctx.chain, height)
  if (history !== undefined) return history.answer('eth_getCode', [toHex(a), toQuantity(height)])
  return toHex(ctx.chain.code(a, height))
}
