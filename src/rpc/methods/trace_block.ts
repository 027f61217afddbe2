import { defineMethod } from '../declare.ts'
import { blockNumberLookup } from '../paramSpecs.ts'

/**
 * trace_block(block): the Parity traces of the block's EVM transactions in block order
 * (rpc/parityTrace.ts `traceBlock`; Erigon turbo/jsonrpc trace_filtering.go `Block`,
 * Anvil `trace_block`), null for a block the chain does not have. No `reward` trace:
 * the chain pays no block reward. Each transaction is replayed under the trace limits
 * (traceConfig.ts `withTraceBudget`). At or below a fork's block, the remote's
 * (rpc/forkPolicy.ts).
 */
export const trace_block = defineMethod({
  name: 'trace_block',
  params: [blockNumberLookup('block')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'number' },
  handler: async (ctx, [height], { scope }) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    if (block === undefined) return null
    const { traceBlock } = await import('../parityTrace.ts')
    return traceBlock(ctx, scope, block)
  },
})
