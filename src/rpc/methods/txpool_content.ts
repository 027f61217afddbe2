import type { RpcMethod } from '../context.ts'
import { formatTransaction } from '../format.ts'
import { expectParams } from '../params.ts'
import { bySender, poolByState } from '../txpool.ts'

/**
 * txpool_content: `{ pending, queued }`, each `{ [EIP-55 sender]: { [decimal nonce]: transaction } }`
 * with transaction objects as eth_getTransactionByHash renders a pending one (geth's TxPoolAPI.Content).
 */
export const txpool_content: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  const { pending, queued } = poolByState(ctx.chain)
  const render = (tx: Parameters<typeof formatTransaction>[0]) => formatTransaction(tx, undefined)
  return { pending: bySender(pending, render), queued: bySender(queued, render) }
}
