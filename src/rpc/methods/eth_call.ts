import { simulationBlock } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseCallRequest } from '../callRequest.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_call: executes on the state of the block given and writes nothing (reference
 * §6.2: the block argument is required). The block environment follows the chain's
 * block context; `pending` is the next block's (Chain.simulationContext).
 */
export const eth_call: RpcMethod = async (ctx, params) => {
  const [call, block] = expectParams(params, 2, 3)
  const request = parseCallRequest(call, 0)
  return toHex(await ctx.chain.call(request, simulationBlock(ctx, block, 1)))
}
