import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { formatTransaction } from '../format.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionByHash: transaction object (block fields null while pending), or
 * null. On a fork, a hash it does not hold is asked of the remote: its transaction
 * counts when mined at or below the fork block (rpc/forkPolicy.ts).
 */
export const eth_getTransactionByHash = defineMethod({
  name: 'eth_getTransactionByHash',
  params: [hash('hash')],
  fork: { kind: 'transaction', param: 0, check: 'blockNumber' },
  handler: (ctx, [bytes]) => {
    const key = toHexRaw(bytes)
    const found = ctx.chain.transaction(key)
    if (found !== undefined) {
      // The node answers this for a native transaction's hash (reference §6.2).
      if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not a EIP155 tx')
      return formatTransaction(found.tx, found)
    }
    const pending = ctx.chain.mempool.get(key)
    return pending === undefined ? null : formatTransaction(pending, undefined)
  },
})
