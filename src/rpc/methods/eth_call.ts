import { defineMethod } from '../declare.ts'
import { callRequest, optional, simulationBlock } from '../paramSpecs.ts'
import { blockOverrides, simulationOverrides, stateOverrides } from '../overrides.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_call(call, block, stateOverrides?, blockOverrides?): executes on the state of the
 * block given, in the environment the block context gives it (`pending`: the next
 * block's), and writes nothing (reference §6.2: the block argument is required). See
 * Chain.simulationContext. The overrides are go-ethereum's (rpc/overrides.ts): the
 * call runs on a throw-away layer of the state and block context, which nothing keeps.
 * Below a fork's block, the remote runs it, on its state there (the call and its
 * overrides as given; the answer is not kept).
 */
export const eth_call = defineMethod({
  name: 'eth_call',
  params: [callRequest('call'), simulationBlock('block'), optional(stateOverrides('stateOverrides'), undefined), optional(blockOverrides('blockOverrides'), undefined)],
  fork: { kind: 'simulation', param: 1 },
  handler: async (ctx, [request, at, state, block]) => toHex(await ctx.chain.call(request, at, simulationOverrides(state, block))),
})
