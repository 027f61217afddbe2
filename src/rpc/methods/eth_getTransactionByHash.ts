import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { formatTransaction } from '../format.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { toHexRaw } from '../../util/hex.ts'

/** eth_getTransactionByHash: transaction object (block fields null while pending), or null. */
export const eth_getTransactionByHash: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const key = toHexRaw(parseHash(hash, 0))
  const found = ctx.chain.transaction(key)
  if (found !== undefined) {
    // The node answers this for a native transaction's hash (reference §6.2).
    if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not a EIP155 tx')
    return formatTransaction(found.tx, found)
  }
  const pending = ctx.chain.mempool.get(key)
  return pending === undefined ? null : formatTransaction(pending, undefined)
}
