import { findBlock } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseBlockReference, parseQuantity } from '../params.ts'
import { formatTransaction } from '../format.ts'

/** eth_getTransactionByBlockNumberAndIndex: as the ByBlockHash variant, the block named by QUANTITY|TAG. */
export const eth_getTransactionByBlockNumberAndIndex: RpcMethod = (ctx, params) => {
  const [ref, index] = expectParams(params, 2)
  const block = findBlock(ctx, parseBlockReference(ref, 0))
  const i = parseQuantity(index, 1)
  const tx = block !== undefined && i < BigInt(block.transactions.length) ? block.transactions[Number(i)] : undefined
  return tx === undefined || tx.kind !== 'evm' ? null : formatTransaction(tx, { block: block!, index: Number(i) })
}
