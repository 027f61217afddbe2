import { defineMethod } from '../declare.ts'
import { blockNumberLookup } from '../paramSpecs.ts'
import { toQuantity } from '../../util/hex.ts'

/**
 * eth_getBlockTransactionCountByNumber: QUANTITY|TAG as the spec says (the real node
 * takes only JSON numbers); null for an unknown block. At or below a fork's block, the
 * remote's count, asked by the block's hash (which every remote takes, the real node
 * too; rpc/forkPolicy.ts `byHash`).
 */
export const eth_getBlockTransactionCountByNumber = defineMethod({
  name: 'eth_getBlockTransactionCountByNumber',
  params: [blockNumberLookup('block')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'header', byHash: 'eth_getBlockTransactionCountByHash' },
  handler: (ctx, [height]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    return block === undefined ? null : toQuantity(block.transactions.length)
  },
})
