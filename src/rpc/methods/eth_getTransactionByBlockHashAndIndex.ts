import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash, parseQuantity } from '../params.ts'
import { formatTransaction } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionByBlockHashAndIndex: the transaction at an index of the native
 * block (native transactions count, reference §6.4), or null. The real node's version
 * is broken; this is the standard behaviour (reference decisions table).
 */
export const eth_getTransactionByBlockHashAndIndex: RpcMethod = (ctx, params) => {
  const [hash, index] = expectParams(params, 2)
  const block = ctx.chain.blockByHash(toHexRaw(parseHash(hash, 0)))
  const i = parseQuantity(index, 1)
  const tx = block !== undefined && i < BigInt(block.transactions.length) ? block.transactions[Number(i)] : undefined
  return tx === undefined || tx.kind !== 'evm' ? null : formatTransaction(tx, { block: block!, index: Number(i) })
}
