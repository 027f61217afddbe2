import { defineMethod } from '../declare.ts'
import { withStateRoot } from '../stateRoots.ts'
import { blockNumberLookup, boolean } from '../paramSpecs.ts'
import { formatBlock } from '../format.ts'

/** eth_getBlockByNumber: block object, or null when none (spec); at or below a fork's block, the remote's (rpc/forkPolicy.ts). */
export const eth_getBlockByNumber = defineMethod({
  name: 'eth_getBlockByNumber',
  params: [blockNumberLookup('block'), boolean('fullTransactions')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'number' },
  handler: (ctx, [height, fullTransactions]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    return block === undefined ? null : withStateRoot(ctx, block, formatBlock(block, fullTransactions))
  },
})
