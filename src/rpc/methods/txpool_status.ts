import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { poolByState } from '../txpool.ts'
import { toQuantity } from '../../util/hex.ts'

/** txpool_status: `{ pending, queued }` counts of pool EVM transactions as QUANTITY (geth's TxPoolAPI.Status; see txpool.ts). */
export const txpool_status: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  const { pending, queued } = poolByState(ctx.chain)
  const count = (senders: Map<string, unknown[]>) => [...senders.values()].reduce((n, txs) => n + txs.length, 0)
  return { pending: toQuantity(count(pending)), queued: toQuantity(count(queued)) }
}
