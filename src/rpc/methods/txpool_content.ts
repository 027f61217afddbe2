import { defineMethod } from '../declare.ts'
import { formatTransaction } from '../format.ts'
import { bySender, poolByState } from '../txpool.ts'
import type { EvmTransaction } from '../../chain/transaction.ts'

/**
 * txpool_content: `{ pending, queued }`, each `{ [EIP-55 sender]: { [decimal nonce]: transaction } }`
 * with transaction objects as eth_getTransactionByHash renders a pending one (geth's TxPoolAPI.Content).
 */
export const txpool_content = defineMethod({
  name: 'txpool_content',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => {
    const { pending, queued } = poolByState(ctx.chain)
    const render = (tx: EvmTransaction) => formatTransaction(tx, undefined)
    return { pending: bySender(pending, render), queued: bySender(queued, render) }
  },
})
