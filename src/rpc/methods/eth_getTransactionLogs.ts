import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { formatLogs } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionLogs (non-standard, reference §6.2): the logs of one transaction;
 * null when unknown or pending. On a fork, the remote's answer for a transaction it
 * mined at or below the fork block (its receipt says where; rpc/forkPolicy.ts).
 */
export const eth_getTransactionLogs = defineMethod({
  name: 'eth_getTransactionLogs',
  params: [hash('hash')],
  fork: { kind: 'transaction', param: 0, check: 'receipt' },
  handler: (ctx, [bytes]) => {
    const found = ctx.chain.transaction(toHexRaw(bytes))
    if (found === undefined) return null
    if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not evm event')
    return formatLogs(found.tx, found.record, found)
  },
})
