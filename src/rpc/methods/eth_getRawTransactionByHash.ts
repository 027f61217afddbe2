import { alias, defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * eth_getRawTransactionByHash: the transaction's EIP-2718 bytes, which for the chain's
 * legacy transactions are the signed RLP list (what @ethereumjs/tx and ethers decode),
 * mined or pending; null for an unknown hash (go-ethereum internal/ethapi/api.go
 * GetRawTransactionByHash, which also looks in the pool). A native transaction is not
 * an Ethereum transaction: refused as eth_getTransactionByHash refuses it (reference
 * §6.2). On a fork, a hash it does not hold is the remote's when mined at or below the
 * fork block (rpc/forkPolicy.ts, placed by its receipt).
 */
export const eth_getRawTransactionByHash = defineMethod({
  name: 'eth_getRawTransactionByHash',
  params: [hash('hash')],
  fork: { kind: 'transaction', param: 0, check: 'receipt' },
  handler: (ctx, [bytes]) => {
    const key = toHexRaw(bytes)
    const found = ctx.chain.transaction(key)
    if (found !== undefined) {
      if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not a EIP155 tx')
      return toHex(found.tx.tx.rlp)
    }
    const pending = ctx.chain.mempool.get(key)
    return pending === undefined ? null : toHex(pending.tx.rlp)
  },
})

/** debug_getRawTransaction: eth_getRawTransactionByHash under go-ethereum's debug name (internal/ethapi/api.go DebugAPI.GetRawTransaction, which also looks in the pool). */
export const debug_getRawTransaction = alias('debug_getRawTransaction', eth_getRawTransactionByHash)
