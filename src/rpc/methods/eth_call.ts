import { simulationBlock } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseCallRequest } from '../callRequest.ts'
import { remoteSimulation } from '../forkHistory.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_call: executes on the state of the block given, in the environment the block
 * context gives it (`pending`: the next block's), and writes nothing (reference §6.2:
 * the block argument is required). See Chain.simulationContext. Below a fork's block,
 * the remote runs it, on its state there (the call as given; the answer is not kept).
 */
export const eth_call: RpcMethod = async (ctx, params) => {
  const [call, block, overrides] = expectParams(params, 2, 3)
  const request = parseCallRequest(call, 0)
  const at = simulationBlock(ctx, block, 1)
  const remote = remoteSimulation(ctx.chain, at)
  if (remote !== undefined) return remote.history.call('eth_call', overrides === undefined ? [call, remote.block] : [call, remote.block, overrides])
  return toHex(await ctx.chain.call(request, at))
}
