import { defineMethod } from '../declare.ts'
import { callRequest, optional, simulationBlock } from '../paramSpecs.ts'
import { blockOverrides, simulationOverrides, stateOverrides } from '../overrides.ts'
import { toQuantity } from '../../util/hex.ts'
import type { SimulationBlock } from '../../chain/chain.ts'

/**
 * eth_estimateGas(call, block?, stateOverrides?, blockOverrides?): a gas limit that
 * suffices, at most 6,000,000 (reference §6.2), found in the block the transaction
 * would land in (number height + 1, the timestamp it will get) when no block or
 * `pending` is given, as go-ethereum, Hardhat and Anvil estimate. A block given
 * follows the chain's block context (Chain.simulationContext). The overrides are
 * eth_call's (go-ethereum's `EstimateGas` takes both): a `gasLimit` override below
 * the cap lowers it. Below a fork's block, the remote estimates, on its state there
 * (the answer is not kept).
 */
export const eth_estimateGas = defineMethod({
  name: 'eth_estimateGas',
  params: [
    callRequest('call'),
    optional(simulationBlock('block'), (): SimulationBlock => 'pending'),
    optional(stateOverrides('stateOverrides'), undefined),
    optional(blockOverrides('blockOverrides'), undefined),
  ],
  fork: { kind: 'simulation', param: 1 },
  handler: async (ctx, [request, at, state, block]) => toQuantity(await ctx.chain.estimateGas(request, at, simulationOverrides(state, block))),
})
