import { simulationBlock } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseCallRequest } from '../callRequest.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_call: executes on the state of the block given, in the environment the block
 * context gives it (`pending`: the next block's), and writes nothing (reference §6.2:
 * the block argument is required). See Chain.simulationContext.
 */
export const eth_call: RpcMethod = async (ctx, params) => {
  const [call, block] = expectParams(params, 2, 3)
  const request = parseCallRequest(call, 0)
  return toHex(await ctx.chain.call(request, simulationBlock(ctx, block, 1)))
}
