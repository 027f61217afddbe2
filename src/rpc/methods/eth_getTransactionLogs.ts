import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { formatLogs } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/** eth_getTransactionLogs (non-standard, reference §6.2): the logs of one transaction; null when unknown or pending. */
export const eth_getTransactionLogs: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const found = ctx.chain.transaction(toHexRaw(parseHash(hash, 0)))
  if (found === undefined) return null
  if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not evm event')
  return formatLogs(found.tx, found.record, found)
}
