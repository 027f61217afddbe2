import { defineMethod } from '../declare.ts'
import { poolByState } from '../txpool.ts'
import { toQuantity } from '../../util/hex.ts'

/** txpool_status: `{ pending, queued }` counts of pool EVM transactions as QUANTITY (geth's TxPoolAPI.Status; see txpool.ts). */
export const txpool_status = defineMethod({
  name: 'txpool_status',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => {
    const { pending, queued } = poolByState(ctx.chain)
    const count = (senders: Map<string, unknown[]>) => [...senders.values()].reduce((n, txs) => n + txs.length, 0)
    return { pending: toQuantity(count(pending)), queued: toQuantity(count(queued)) }
  },
})
