import { findHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseBlockReference, parseQuantity } from '../params.ts'
import { formatTransaction } from '../format.ts'
import { historyAt, remoteObject } from '../forkHistory.ts'
import { toQuantity } from '../../util/hex.ts'

/**
 * eth_getTransactionByBlockNumberAndIndex: as the ByBlockHash variant, the block named
 * by QUANTITY|TAG; at or below a fork's block, the remote's (rpc/forkHistory.ts).
 */
export const eth_getTransactionByBlockNumberAndIndex: RpcMethod = (ctx, params) => {
  const [ref, index] = expectParams(params, 2)
  const height = findHeight(ctx, parseBlockReference(ref, 0))
  const i = parseQuantity(index, 1)
  const history = height === undefined ? undefined : historyAt(ctx.chain, height)
  if (history !== undefined) return remoteObject(history, 'eth_getTransactionByBlockNumberAndIndex', [toQuantity(height!), toQuantity(i)], 'blockNumber')
  const block = height === undefined ? undefined : ctx.chain.blockAt(height)
  const tx = block !== undefined && i < BigInt(block.transactions.length) ? block.transactions[Number(i)] : undefined
  return tx === undefined || tx.kind !== 'evm' ? null : formatTransaction(tx, { block: block!, index: Number(i) })
}
