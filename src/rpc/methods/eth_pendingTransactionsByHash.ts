import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { formatTransaction } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_pendingTransactionsByHash (non-standard, reference §6.2): the pending transaction with this hash, or null.
 * Only the devnet's own pool is asked, on a fork too: what is pending on the remote is not the fork's.
 */
export const eth_pendingTransactionsByHash = defineMethod({
  name: 'eth_pendingTransactionsByHash',
  params: [hash('hash')],
  fork: { kind: 'local' },
  handler: (ctx, [h]) => {
    const pending = ctx.chain.mempool.get(toHexRaw(h))
    return pending === undefined ? null : formatTransaction(pending, undefined)
  },
})
