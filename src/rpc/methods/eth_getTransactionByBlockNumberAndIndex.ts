import { defineMethod } from '../declare.ts'
import { blockNumberLookup, quantity } from '../paramSpecs.ts'
import { formatTransaction } from '../format.ts'

/**
 * eth_getTransactionByBlockNumberAndIndex: as the ByBlockHash variant, the block named
 * by QUANTITY|TAG; at or below a fork's block, the remote's (rpc/forkPolicy.ts).
 */
export const eth_getTransactionByBlockNumberAndIndex = defineMethod({
  name: 'eth_getTransactionByBlockNumberAndIndex',
  params: [blockNumberLookup('block'), quantity('index')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'blockNumber' },
  handler: (ctx, [height, i]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    const tx = block !== undefined && i < BigInt(block.transactions.length) ? block.transactions[Number(i)] : undefined
    return tx === undefined || tx.kind !== 'evm' ? null : formatTransaction(tx, { block: block!, index: Number(i) })
  },
})
