import { defineMethod } from '../declare.ts'
import { data, json } from '../paramSpecs.ts'
import { invalidArgument } from '../errors.ts'
import type { CallFrameJson, ParityTraceResults } from '../../core/rpcObjects.ts'

/**
 * trace_rawTransaction(raw, traceTypes): decodes the signed legacy transaction `raw`
 * (the chain's EIP-155 id) and runs it as a call from its signer on the latest state,
 * without its nonce checked and without sending it (Erigon turbo/jsonrpc trace_adhoc.go
 * `RawTransaction`), answering Parity's `TraceResults` as trace_call does: `output` and,
 * for `"trace"`, the flat traces. `stateDiff` and `vmTrace` are refused (-32602), as by
 * trace_call. A transaction that does not decode is refused as eth_sendRawTransaction
 * refuses it. Under the trace limits; local on a fork (the devnet's own latest state).
 */
export const trace_rawTransaction = defineMethod({
  name: 'trace_rawTransaction',
  params: [data('raw'), json<('trace' | 'stateDiff' | 'vmTrace')[]>('traceTypes')],
  fork: { kind: 'local' },
  handler: async (ctx, [raw, traceTypes], { scope }): Promise<ParityTraceResults> => {
    const [{ parseTraceTypes, parityTraces }, { withTraceBudget }, { traceCall }, { CallTracer }, { decodeLegacyTransaction }] = await Promise.all([
      import('../parityTrace.ts'),
      import('../traceConfig.ts'),
      import('../../chain/replay.ts'),
      import('../../evm/tracing/callTracer.ts'),
      import('../../evm/legacyTransaction.ts'),
    ])
    const types = parseTraceTypes(traceTypes, 1)
    if (types.stateDiff) throw invalidArgument(1, 'traceTypes: stateDiff is not supported by trace_rawTransaction (send it, then trace_replayTransaction)')
    const tx = decodeLegacyTransaction(raw, BigInt(ctx.chainId))
    const request = { from: tx.from, to: tx.to, data: tx.data, value: tx.value, gasLimit: tx.gasLimit, gasPrice: tx.gasPrice }
    const tracer = new CallTracer({ sizeLimit: ctx.limits.traceSizeLimit })
    const root = (await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => traceCall(ctx.chain, request, ctx.chain.height, tracer, budget))) as CallFrameJson
    return { output: root.output ?? '0x', stateDiff: null, trace: types.trace ? parityTraces(root, undefined) : null, vmTrace: null }
  },
})
