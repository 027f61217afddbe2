import { defineMethod } from '../declare.ts'
import { callRequest, optional, simulationBlock } from '../paramSpecs.ts'
import { traceCallConfig } from '../overrides.ts'
import type { SimulationBlock } from '../../chain/chain.ts'
import type { Trace } from '../schema.ts'

/**
 * debug_traceCall(call, block?, options?): runs `call` as eth_call does (the block
 * defaults to `latest`; its environment follows the chain's block context, `pending`
 * is the next block's) with go-ethereum's struct logger or callTracer
 * (eth/tracers/api.go `TraceCall`); changes nothing. `options` is go-ethereum's
 * `TraceCallConfig`: the trace options (rpc/traceConfig.ts) with eth_call's
 * `stateOverrides` and `blockOverrides` (rpc/overrides.ts). Stops with -32000
 * `execution timeout` past its time limit (traceConfig.ts `withTraceBudget`). Below a
 * fork's block, the remote traces it, on its state there (the answer is not kept).
 */
export const debug_traceCall = defineMethod({
  name: 'debug_traceCall',
  params: [callRequest('call'), optional(simulationBlock('block'), (ctx): SimulationBlock => ctx.chain.height), optional(traceCallConfig('options'), undefined)],
  fork: { kind: 'simulation', param: 1 },
  handler: async (ctx, [request, at, config], { scope }) => {
    // The tracers load on the first trace, off the start-up path.
    const [{ tracerFromOptions, traceTimeoutOf, withTraceBudget }, { traceCall }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/replay.ts')])
    const options = config?.options
    const tracer = tracerFromOptions(options, 2, ctx.limits.traceSizeLimit)
    const timeout = traceTimeoutOf(options, 2, ctx.limits.traceTimeout)
    // The tracer's result is its JSON (evm/tracing/), which the schema names Trace.
    return withTraceBudget(ctx.limits, scope, timeout, (budget) => traceCall(ctx.chain, request, at, tracer, budget, config?.overrides)) as Promise<Trace>
  },
})
