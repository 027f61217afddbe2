import { defineMethod } from '../declare.ts'
import { address, numberish } from '../paramSpecs.ts'
import { searchTransactions } from '../otsSearch.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * ots_searchTransactionsBefore(address, blockNumber, pageSize): `{ txs, receipts,
 * firstPage, lastPage }`, the transactions touching the address in blocks below
 * `blockNumber` (0: from the newest block), newest first, a page ending at a block
 * boundary once it holds `pageSize` (otterscan docs/custom-jsonrpc.md; Anvil
 * crates/anvil/src/eth/otterscan/api.rs). Answered from the address index
 * (chain/addressIndex.ts), native transactions included; receipts carry no logs and the
 * block's timestamp. Local: on a fork, the remote's blocks are not searched, as Anvil
 * searches only blocks after the fork.
 */
export const ots_searchTransactionsBefore = defineMethod({
  name: 'ots_searchTransactionsBefore',
  params: [address('address'), numberish('blockNumber'), numberish('pageSize')],
  fork: { kind: 'local' },
  handler: (ctx, [a, blockNumber, pageSize]) => searchTransactions(ctx.chain, toHexRaw(a), blockNumber, pageSize, 'before'),
})
