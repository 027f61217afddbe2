import { findBlock } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseBlockReference } from '../params.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_getBlockTransactionCountByNumber: QUANTITY|TAG as the spec says (the real node takes only JSON numbers); null for an unknown block. */
export const eth_getBlockTransactionCountByNumber: RpcMethod = (ctx, params) => {
  const [ref] = expectParams(params, 1)
  const block = findBlock(ctx, parseBlockReference(ref, 0))
  return block === undefined ? null : toQuantity(block.transactions.length)
}
