import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { formatLogs } from '../format.ts'
import { forkHistory, remoteReceipt } from '../forkHistory.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionLogs (non-standard, reference §6.2): the logs of one transaction;
 * null when unknown or pending. On a fork, the remote's answer for a transaction it
 * mined at or below the fork block (its receipt says where).
 */
export const eth_getTransactionLogs: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const bytes = parseHash(hash, 0)
  const found = ctx.chain.transaction(toHexRaw(bytes))
  if (found === undefined) {
    const history = forkHistory(ctx.chain)
    return history === undefined || remoteReceipt(ctx.chain, bytes) === null ? null : history.answer('eth_getTransactionLogs', [toHex(bytes)])
  }
  if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not evm event')
  return formatLogs(found.tx, found.record, found)
}
