import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { formatReceipt } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionReceipt: receipt object, or null when unknown or still pending
 * (spec). On a fork, a hash it does not hold is the remote's receipt when mined at or
 * below the fork block (rpc/forkPolicy.ts).
 */
export const eth_getTransactionReceipt = defineMethod({
  name: 'eth_getTransactionReceipt',
  params: [hash('hash')],
  fork: { kind: 'transaction', param: 0, check: 'blockNumber' },
  handler: (ctx, [bytes]) => {
    const found = ctx.chain.transaction(toHexRaw(bytes))
    if (found === undefined) return null
    // A native transaction has notifies, not EVM logs (reference §6.2).
    if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not evm event')
    return formatReceipt(found.tx, found.record, found)
  },
})
