import { defineMethod } from '../declare.ts'
import { callRequest, optional, simulationBlock } from '../paramSpecs.ts'
import { stateOverrides, simulationOverrides } from '../overrides.ts'
import type { SimulationBlock } from '../../chain/chain.ts'
import type { AccessListTrace } from '../../evm/tracing/accessListTracer.ts'
import type { RpcAccessListResult } from '../../core/rpcObjects.ts'
import { toHex, toQuantity } from '../../util/hex.ts'

/** The precompiles of the chain's EVM up to Istanbul, 0x01..0x09, which go-ethereum leaves out of an access list (vm.ActivePrecompiles). */
const PRECOMPILES = Array.from({ length: 9 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`)

/**
 * eth_createAccessList(call, block?, stateOverrides?): go-ethereum's `AccessListResult`
 * (internal/ethapi/api.go AccessList): `accessList` (addresses and storage slots the
 * call touches, from an access-list tracing of it, eth/tracers/logger
 * access_list_tracer.go; sender, recipient and precompiles only with a slot), `gasUsed`
 * of the call as the chain runs it, and `error` (go-ethereum's text) when it fails.
 * The block defaults to `pending`, as go-ethereum's does. The chain is Istanbul by
 * default, where an access list changes no gas, and takes legacy transactions only, so
 * a transaction cannot carry the list: gasUsed is that of the call without one.
 * go-ethereum answers before Berlin the same way (it checks no fork; its loop ends at
 * once as the list changes nothing), which is what tools (viem's createAccessList,
 * Anvil's dealERC20) read the touched slots from. Below a fork's block, the remote
 * runs it (not kept).
 */
export const eth_createAccessList = defineMethod({
  name: 'eth_createAccessList',
  params: [callRequest('call'), optional(simulationBlock('block'), (): SimulationBlock => 'pending'), optional(stateOverrides('stateOverrides'), undefined)],
  fork: { kind: 'simulation', param: 1 },
  handler: async (ctx, [request, at, state], { scope }) => {
    // The tracing loads on the first call, off the start-up path.
    const [{ withTraceBudget }, { traceCall }, { accessListTracer }] = await Promise.all([
      import('../traceConfig.ts'),
      import('../../chain/replay.ts'),
      import('../../evm/tracing/accessListTracer.ts'),
    ])
    const excluded = new Set([toHex(request.from), ...(request.to === undefined ? [] : [toHex(request.to)]), ...PRECOMPILES])
    const tracer = accessListTracer(excluded)
    const trace = (await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) =>
      traceCall(ctx.chain, request, at, tracer, budget, simulationOverrides(state, undefined)),
    )) as AccessListTrace
    const answer: RpcAccessListResult = { accessList: trace.accessList, gasUsed: toQuantity(trace.gasUsed) }
    if (trace.error !== undefined) answer.error = trace.error
    return answer
  },
})
