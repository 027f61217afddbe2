import { defineMethod } from '../declare.ts'
import { blockNumberLookup } from '../paramSpecs.ts'
import { formatReceipt } from '../format.ts'

/**
 * eth_getBlockReceipts: the receipts of the block's EVM transactions in block order, as
 * eth_getTransactionReceipt renders them (fee logs included); null for an unknown
 * block (go-ethereum internal/ethapi/api.go GetBlockReceipts). A native transaction has
 * no EVM receipt (reference §6.2) and is left out. The block is a QUANTITY|TAG; at or
 * below a fork's block, the remote's (rpc/forkPolicy.ts).
 */
export const eth_getBlockReceipts = defineMethod({
  name: 'eth_getBlockReceipts',
  params: [blockNumberLookup('block')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'header' },
  handler: (ctx, [height]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    if (block === undefined) return null
    return block.transactions.flatMap((tx, index) => (tx.kind === 'evm' ? [formatReceipt(tx, block.records[index]!, { block, index })] : []))
  },
})
