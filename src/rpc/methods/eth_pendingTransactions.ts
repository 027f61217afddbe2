import { defineMethod } from '../declare.ts'
import { formatTransaction } from '../format.ts'

/** eth_pendingTransactions (non-standard, reference §6.2): pending EVM transactions, null when there are none. */
export const eth_pendingTransactions = defineMethod({
  name: 'eth_pendingTransactions',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => {
    const pending = ctx.chain.mempool.all()
    return pending.length === 0 ? null : pending.map((tx) => formatTransaction(tx, undefined))
  },
})
