import { defineMethod } from '../declare.ts'
import { withStateRoot } from '../stateRoots.ts'
import { blockNumberLookup, lenient, numberish } from '../paramSpecs.ts'
import { formatBlock } from '../format.ts'
import { formatAnyTransaction, formatOtsReceipt } from '../otsSearch.ts'
import type { RpcTransaction } from '../../core/rpcObjects.ts'

/** The 4-byte selector of calldata, or the calldata when shorter (Erigon's ots_getBlockTransactions cuts `input` so). */
function selector(input: RpcTransaction['input']): RpcTransaction['input'] {
  return input.length > 10 ? (input.slice(0, 10) as RpcTransaction['input']) : input
}

/**
 * ots_getBlockTransactions(blockNumber, page, pageSize): `{ fullblock, receipts }`,
 * page `page` (from 0) of `pageSize` of the block's transactions, native ones included
 * (rendered as rpc/otsSearch.ts says), with `input` cut to the selector, the block's
 * `transactionCount` and a null `logsBloom`; receipts without logs, with the block's
 * timestamp (otterscan docs/custom-jsonrpc.md; Erigon turbo/jsonrpc otterscan_api.go
 * GetBlockTransactions). Null for an unknown block. Local on a fork.
 */
export const ots_getBlockTransactions = defineMethod({
  name: 'ots_getBlockTransactions',
  params: [lenient(blockNumberLookup('blockNumber')), numberish('page'), numberish('pageSize')],
  fork: { kind: 'local' },
  handler: async (ctx, [height, page, pageSize]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    if (block === undefined) return null
    const { transactions: _hashes, logsBloom: _bloom, ...rest } = formatBlock(block, false)
    const first = Math.min(page * pageSize, block.transactions.length)
    const last = Math.min(first + pageSize, block.transactions.length)
    const transactions: RpcTransaction[] = []
    const receipts = []
    for (let index = first; index < last; index++) {
      const tx = formatAnyTransaction(block, index)
      transactions.push({ ...tx, input: selector(tx.input) })
      receipts.push(formatOtsReceipt(block, index))
    }
    return { fullblock: await withStateRoot(ctx, block, { ...rest, transactions, logsBloom: null, transactionCount: block.transactions.length }), receipts }
  },
})
