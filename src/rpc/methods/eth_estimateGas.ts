import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseCallRequest } from '../callRequest.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_estimateGas: a gas limit that suffices, at most 6,000,000 (reference §6.2). */
export const eth_estimateGas: RpcMethod = async (ctx, params) => {
  const [call, block] = expectParams(params, 1, 2)
  const request = parseCallRequest(call, 0)
  const height = block === undefined ? ctx.chain.height : stateHeight(ctx, block, 1)
  return toQuantity(await ctx.chain.estimateGas(request, height))
}
