import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { formatTransaction } from '../format.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { forkHistory, remoteObject } from '../forkHistory.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionByHash: transaction object (block fields null while pending), or
 * null. On a fork, a hash it does not hold is asked of the remote: its transaction
 * counts when mined at or below the fork block (rpc/forkHistory.ts).
 */
export const eth_getTransactionByHash: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const bytes = parseHash(hash, 0)
  const key = toHexRaw(bytes)
  const found = ctx.chain.transaction(key)
  if (found !== undefined) {
    // The node answers this for a native transaction's hash (reference §6.2).
    if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not a EIP155 tx')
    return formatTransaction(found.tx, found)
  }
  const pending = ctx.chain.mempool.get(key)
  if (pending !== undefined) return formatTransaction(pending, undefined)
  const history = forkHistory(ctx.chain)
  return history === undefined ? null : remoteObject(history, 'eth_getTransactionByHash', [toHex(bytes)], 'blockNumber')
}
