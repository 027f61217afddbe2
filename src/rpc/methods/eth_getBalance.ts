import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddress } from '../params.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_getBalance: gas-token balance in wei (v2, 18 decimals; reference §4.1) as of the block given. */
export const eth_getBalance: RpcMethod = (ctx, params) => {
  const [address, block] = expectParams(params, 2)
  const a = parseAddress(address, 0)
  return toQuantity(ctx.chain.account(a, stateHeight(ctx, block, 1)).gas)
}
