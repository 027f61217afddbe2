import { defineMethod } from '../declare.ts'
import { address } from '../paramSpecs.ts'
import { formatTransaction } from '../format.ts'
import { byNonce, poolByState } from '../txpool.ts'
import type { EvmTransaction } from '../../chain/transaction.ts'
import { toHexRaw } from '../../util/hex.ts'

/** txpool_contentFrom(address): that sender's `{ pending, queued }`, each `{ [decimal nonce]: transaction }` (geth's TxPoolAPI.ContentFrom). */
export const txpool_contentFrom = defineMethod({
  name: 'txpool_contentFrom',
  params: [address('address')],
  fork: { kind: 'local' },
  handler: (ctx, [from]) => {
    const sender = toHexRaw(from)
    const { pending, queued } = poolByState(ctx.chain, sender)
    const render = (tx: EvmTransaction) => formatTransaction(tx, undefined)
    return { pending: byNonce(pending.get(sender) ?? [], render), queued: byNonce(queued.get(sender) ?? [], render) }
  },
})
