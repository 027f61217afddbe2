import type { RpcMethod } from '../context.ts'
import { formatTransaction } from '../format.ts'
import { expectParams, parseAddress } from '../params.ts'
import { byNonce, poolByState } from '../txpool.ts'
import { toHexRaw } from '../../util/hex.ts'

/** txpool_contentFrom(address): that sender's `{ pending, queued }`, each `{ [decimal nonce]: transaction }` (geth's TxPoolAPI.ContentFrom). */
export const txpool_contentFrom: RpcMethod = (ctx, params) => {
  const [address] = expectParams(params, 1)
  const sender = toHexRaw(parseAddress(address, 0))
  const { pending, queued } = poolByState(ctx.chain, sender)
  const render = (tx: Parameters<typeof formatTransaction>[0]) => formatTransaction(tx, undefined)
  return { pending: byNonce(pending.get(sender) ?? [], render), queued: byNonce(queued.get(sender) ?? [], render) }
}
