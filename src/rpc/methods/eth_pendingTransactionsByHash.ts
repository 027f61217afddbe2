import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { formatTransaction } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/** eth_pendingTransactionsByHash (non-standard, reference §6.2): the pending transaction with this hash, or null. */
export const eth_pendingTransactionsByHash: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const pending = ctx.chain.mempool.get(toHexRaw(parseHash(hash, 0)))
  return pending === undefined ? null : formatTransaction(pending, undefined)
}
