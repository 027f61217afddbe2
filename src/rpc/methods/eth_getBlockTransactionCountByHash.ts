import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { toHexRaw, toQuantity } from '../../util/hex.ts'

/**
 * eth_getBlockTransactionCountByHash: all transactions of the block, native and EVM
 * (reference §6.2); null for an unknown block. On a fork, a block it did not build is
 * the remote's, placed by its header (rpc/forkPolicy.ts).
 */
export const eth_getBlockTransactionCountByHash = defineMethod({
  name: 'eth_getBlockTransactionCountByHash',
  params: [hash('hash')],
  fork: { kind: 'block', by: 'hash', param: 0, check: 'header' },
  handler: (ctx, [bytes]) => {
    const block = ctx.chain.blockByHash(toHexRaw(bytes))
    return block === undefined ? null : toQuantity(block.transactions.length)
  },
})
