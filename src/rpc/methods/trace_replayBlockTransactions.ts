import { defineMethod } from '../declare.ts'
import { blockNumberLookup, json } from '../paramSpecs.ts'

/**
 * trace_replayBlockTransactions(block, traceTypes): Parity's `TraceResults` of each EVM
 * transaction of the block in order, each with its `transactionHash` (Erigon
 * turbo/jsonrpc trace_adhoc.go `ReplayBlockTransactions`; rpc/parityTrace.ts
 * `replayMinedBlock`: the block replayed once); null for a block the chain does not
 * have. `vmTrace` is refused (-32602). Native transactions have no EVM frames and are
 * left out. The replay runs under the trace limits. At or below a fork's block, the
 * remote's (rpc/forkPolicy.ts).
 */
export const trace_replayBlockTransactions = defineMethod({
  name: 'trace_replayBlockTransactions',
  params: [blockNumberLookup('block'), json<('trace' | 'stateDiff' | 'vmTrace')[]>('traceTypes')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'number' },
  handler: async (ctx, [height, traceTypes], { scope }) => {
    const { parseTraceTypes, replayMinedBlock } = await import('../parityTrace.ts')
    const types = parseTraceTypes(traceTypes, 1)
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    if (block === undefined) return null
    return replayMinedBlock(ctx, scope, block, types)
  },
})
