import { defineMethod } from '../declare.ts'
import { callRequest, json, optional, simulationBlock } from '../paramSpecs.ts'
import { invalidArgument } from '../errors.ts'
import type { CallFrameJson, ParityTraceResults } from '../../core/rpcObjects.ts'
import type { SimulationBlock } from '../../chain/chainTypes.ts'

/**
 * trace_call(call, traceTypes, block?): runs `call` as eth_call does at `block`
 * (default latest) and answers Parity's `TraceResults` (Erigon turbo/jsonrpc
 * trace_adhoc.go `Call`): `output` of the top call and, for `"trace"`, its flat traces
 * without block positions (rpc/parityTrace.ts). `stateDiff` is refused (-32602): a
 * simulation's writes are dropped as it ends (chain/replay.ts traceCall), so there is
 * no state after it to compare; `vmTrace` likewise. Under the trace limits. At or below
 * a fork's block, the remote runs it (rpc/forkPolicy.ts).
 */
export const trace_call = defineMethod({
  name: 'trace_call',
  params: [callRequest('call'), json<('trace' | 'stateDiff' | 'vmTrace')[]>('traceTypes'), optional(simulationBlock('block'), (ctx): SimulationBlock => ctx.chain.height)],
  fork: { kind: 'simulation', param: 2 },
  handler: async (ctx, [request, traceTypes, at], { scope }): Promise<ParityTraceResults> => {
    const [{ parseTraceTypes, parityTraces }, { withTraceBudget }, { traceCall }, { CallTracer }] = await Promise.all([
      import('../parityTrace.ts'),
      import('../traceConfig.ts'),
      import('../../chain/replay.ts'),
      import('../../evm/tracing/callTracer.ts'),
    ])
    const types = parseTraceTypes(traceTypes, 1)
    if (types.stateDiff) throw invalidArgument(1, 'traceTypes: stateDiff is not supported by trace_call (use trace_replayTransaction on a mined transaction)')
    const tracer = new CallTracer({ sizeLimit: ctx.limits.traceSizeLimit })
    const root = (await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => traceCall(ctx.chain, request, at, tracer, budget))) as CallFrameJson
    return { output: root.output ?? '0x', stateDiff: null, trace: types.trace ? parityTraces(root, undefined) : null, vmTrace: null }
  },
})
