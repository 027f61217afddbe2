import { defineMethod } from '../declare.ts'
import { optional, param, simulationBlock } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { parseManyCall } from '../callMany.ts'
import type { CallFrameJson, ParityTraceResults, RpcTransactionRequest } from '../../core/rpcObjects.ts'
import type { SimulatedCallInput } from '../../chain/simulateBlocks.ts'
import type { SimulationBlock } from '../../chain/chainTypes.ts'
import type { TraceTypes } from '../parityTrace.ts'
import { describeValue } from '../../errors/describe.ts'

/** Most calls one trace_callMany takes. */
const LIMIT = 1000

/** One `[call, traceTypes]` pair, parsed. */
interface TracedCall {
  readonly call: SimulatedCallInput
  readonly types: TraceTypes
}

/**
 * trace_callMany(calls, block?): Parity's / Erigon's (turbo/jsonrpc trace_adhoc.go
 * `CallMany`) `[[call, traceTypes], ...]` run in order on the state of `block` (default
 * latest) as trace_call runs one, each seeing the ones before it, on one throw-away
 * overlay (chain/simulateBlocks.ts): per call its `TraceResults`, `output` and for
 * `"trace"` the flat traces without block positions (rpc/parityTrace.ts). As
 * trace_call, `stateDiff` and `vmTrace` are refused (-32602). No nonce checks, gas
 * price 0 unless given; a sender that cannot pay value and gas refuses the whole
 * request (-32000). Under the trace limits. At or below a fork's block the devnet
 * holds no state to run on, and the call is refused.
 */
export const trace_callMany = defineMethod({
  name: 'trace_callMany',
  params: [
    param<[RpcTransactionRequest, ('trace' | 'stateDiff' | 'vmTrace')[]][], TracedCall[]>('calls', (value, index) => {
      if (!Array.isArray(value) || value.length === 0) throw invalidArgument(index, 'calls: expected a non-empty array of [call, traceTypes] pairs')
      if (value.length > LIMIT) throw invalidArgument(index, `too many calls: more than ${LIMIT}`)
      return value.map((pair: unknown, i): TracedCall => {
        if (!Array.isArray(pair) || pair.length !== 2) throw invalidArgument(index, `calls[${i}]: expected a [call, traceTypes] pair`)
        return { call: parseManyCall(pair[0], index, `calls[${i}][0]`), types: parseTypes(pair[1], index, i) }
      })
    }),
    optional(simulationBlock('block'), (ctx): SimulationBlock => ctx.chain.height),
  ],
  fork: { kind: 'local' },
  handler: async (ctx, [calls, at], { scope }): Promise<ParityTraceResults[]> => {
    const forkHeight = ctx.chain.fork?.history?.height
    if (forkHeight !== undefined && at !== 'pending' && at <= forkHeight) {
      throw new RpcError(RpcErrorCode.ServerError, `block ${at} is at or below the fork block ${forkHeight}: the fork holds no state there to trace on`)
    }
    const [{ parityTraces }, { withTraceBudget }, { simulateBlocks }, { CallTracer }] = await Promise.all([
      import('../parityTrace.ts'),
      import('../traceConfig.ts'),
      import('../../chain/simulateBlocks.ts'),
      import('../../evm/tracing/callTracer.ts'),
    ])
    const options = { validation: false, chainId: BigInt(ctx.chainId), sameBlock: true, tracer: () => new CallTracer({ sizeLimit: ctx.limits.traceSizeLimit }) }
    const answer = await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => simulateBlocks(ctx.chain, at, [{ calls: calls.map((c) => c.call) }], options, budget))
    if ('refused' in answer) throw new RpcError(RpcErrorCode.ServerError, answer.refused.message)
    return answer.blocks[0]!.calls.map(({ trace }, i) => {
      const root = trace as CallFrameJson
      return { output: root.output ?? '0x', stateDiff: null, trace: calls[i]!.types.trace ? parityTraces(root, undefined) : null, vmTrace: null }
    })
  },
})

/** traceTypes of call `i`: trace_call's, `stateDiff` and `vmTrace` refused (a simulation keeps no state after it to compare). */
function parseTypes(value: unknown, index: number, i: number): TraceTypes {
  // As parityTrace.ts parseTraceTypes, which is loaded with the handler only (start-up cost).
  if (!Array.isArray(value)) throw invalidArgument(index, `calls[${i}][1]: traceTypes, an array of "trace", "stateDiff", "vmTrace"`)
  const types = { trace: false, stateDiff: false }
  for (const name of value as unknown[]) {
    if (name === 'trace') types.trace = true
    else if (name === 'stateDiff' || name === 'vmTrace') throw invalidArgument(index, `calls[${i}][1]: ${name} is not supported by trace_callMany (use trace_replayTransaction on a mined transaction)`)
    else throw invalidArgument(index, `calls[${i}][1]: unrecognized trace type: ${describeValue(name)}`)
  }
  return types
}
