import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { formatReceipt } from '../format.ts'
import { remoteReceipt } from '../forkHistory.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionReceipt: receipt object, or null when unknown or still pending
 * (spec). On a fork, a hash it does not hold is the remote's receipt when mined at or
 * below the fork block (rpc/forkHistory.ts).
 */
export const eth_getTransactionReceipt: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const bytes = parseHash(hash, 0)
  const found = ctx.chain.transaction(toHexRaw(bytes))
  if (found === undefined) return remoteReceipt(ctx.chain, bytes)
  // A native transaction has notifies, not EVM logs (reference §6.2).
  if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not evm event')
  return formatReceipt(found.tx, found.record, found)
}
