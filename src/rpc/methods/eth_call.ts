import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseCallRequest } from '../callRequest.ts'
import { toHex } from '../../util/hex.ts'

/** eth_call: executes on the state of the block given and writes nothing (reference §6.2: the block argument is required). */
export const eth_call: RpcMethod = async (ctx, params) => {
  const [call, block] = expectParams(params, 2, 3)
  const request = parseCallRequest(call, 0)
  return toHex(await ctx.chain.call(request, stateHeight(ctx, block, 1)))
}
