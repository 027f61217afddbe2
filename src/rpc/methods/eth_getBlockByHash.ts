import { defineMethod } from '../declare.ts'
import { withStateRoot } from '../stateRoots.ts'
import { boolean, hash } from '../paramSpecs.ts'
import { formatBlock } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/** eth_getBlockByHash: block object, or null when none (spec); on a fork, a block it did not build is the remote's (rpc/forkPolicy.ts). */
export const eth_getBlockByHash = defineMethod({
  name: 'eth_getBlockByHash',
  params: [hash('hash'), boolean('fullTransactions')],
  fork: { kind: 'block', by: 'hash', param: 0, check: 'number' },
  handler: (ctx, [bytes, fullTransactions]) => {
    const block = ctx.chain.blockByHash(toHexRaw(bytes))
    return block === undefined ? null : withStateRoot(ctx, block, formatBlock(block, fullTransactions))
  },
})
