import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash, parseQuantity } from '../params.ts'
import { formatTransaction } from '../format.ts'
import { historyForBlockHash, remoteObject } from '../forkHistory.ts'
import { toHex, toHexRaw, toQuantity } from '../../util/hex.ts'

/**
 * eth_getTransactionByBlockHashAndIndex: the transaction at an index of the native
 * block (native transactions count, reference §6.4), or null. The real node's version
 * is broken; this is the standard behaviour (reference decisions table). On a fork, a
 * block it did not build is the remote's (rpc/forkHistory.ts).
 */
export const eth_getTransactionByBlockHashAndIndex: RpcMethod = (ctx, params) => {
  const [hash, index] = expectParams(params, 2)
  const bytes = parseHash(hash, 0)
  const i = parseQuantity(index, 1)
  const history = historyForBlockHash(ctx.chain, toHexRaw(bytes))
  if (history !== undefined) return remoteObject(history, 'eth_getTransactionByBlockHashAndIndex', [toHex(bytes), toQuantity(i)], 'blockNumber')
  const block = ctx.chain.blockByHash(toHexRaw(bytes))
  const tx = block !== undefined && i < BigInt(block.transactions.length) ? block.transactions[Number(i)] : undefined
  return tx === undefined || tx.kind !== 'evm' ? null : formatTransaction(tx, { block: block!, index: Number(i) })
}
