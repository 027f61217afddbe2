import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { invalidArgument } from '../errors.ts'
import { expectParams, parseAddress } from '../params.ts'
import { toHex } from '../../util/hex.ts'

/** eth_getCode: code at the address as of the block; the tag `pending` is an invalid parameter (spec, Errors 7). */
export const eth_getCode: RpcMethod = (ctx, params) => {
  const [address, block] = expectParams(params, 2)
  const a = parseAddress(address, 0)
  if (block === 'pending') throw invalidArgument(1, 'pending block is not supported')
  return toHex(ctx.chain.code(a, stateHeight(ctx, block, 1)))
}
