import { simulationBlock } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseCallRequest } from '../callRequest.ts'
import { remoteSimulation } from '../forkHistory.ts'
import { toQuantity } from '../../util/hex.ts'

/**
 * eth_estimateGas: a gas limit that suffices, at most 6,000,000 (reference §6.2), found
 * in the block the transaction would land in (number height + 1, the timestamp it will
 * get) when no block or `pending` is given, as go-ethereum, Hardhat and Anvil estimate.
 * A block given follows the chain's block context (Chain.simulationContext). Below a
 * fork's block, the remote estimates, on its state there (the answer is not kept).
 */
export const eth_estimateGas: RpcMethod = async (ctx, params) => {
  const [call, block] = expectParams(params, 1, 2)
  const request = parseCallRequest(call, 0)
  const at = block === undefined || block === null ? 'pending' : simulationBlock(ctx, block, 1)
  const remote = remoteSimulation(ctx.chain, at)
  if (remote !== undefined) return remote.history.call('eth_estimateGas', [call, remote.block])
  return toQuantity(await ctx.chain.estimateGas(request, at))
}
