import { defineMethod } from '../declare.ts'
import { address, numberish } from '../paramSpecs.ts'
import { searchTransactions } from '../otsSearch.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * ots_searchTransactionsAfter(address, blockNumber, pageSize): `{ txs, receipts,
 * firstPage, lastPage }`, the transactions touching the address in blocks above
 * `blockNumber` (0: from the oldest), going forward, answered newest first as the
 * spec wants; a page ends at a block boundary once it holds `pageSize` (otterscan
 * docs/custom-jsonrpc.md; Anvil crates/anvil/src/eth/otterscan/api.rs). Answered from
 * the address index (chain/addressIndex.ts), native transactions included. Local: on
 * a fork, the remote's blocks are not searched.
 */
export const ots_searchTransactionsAfter = defineMethod({
  name: 'ots_searchTransactionsAfter',
  params: [address('address'), numberish('blockNumber'), numberish('pageSize')],
  fork: { kind: 'local' },
  handler: (ctx, [a, blockNumber, pageSize]) => searchTransactions(ctx.chain, toHexRaw(a), blockNumber, pageSize, 'after'),
})
