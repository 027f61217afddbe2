import { findBlock } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseBlockReference, parseBoolean } from '../params.ts'
import { formatBlock } from '../format.ts'

/** eth_getBlockByNumber: block object, or null when none (spec). */
export const eth_getBlockByNumber: RpcMethod = (ctx, params) => {
  const [ref, full] = expectParams(params, 2)
  const block = findBlock(ctx, parseBlockReference(ref, 0))
  const fullTransactions = parseBoolean(full, 1)
  return block === undefined ? null : formatBlock(block, fullTransactions)
}
