import { findHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseBlockReference, parseBoolean } from '../params.ts'
import { formatBlock } from '../format.ts'
import { historyAt, remoteBlockAt } from '../forkHistory.ts'

/** eth_getBlockByNumber: block object, or null when none (spec); at or below a fork's block, the remote's (rpc/forkHistory.ts). */
export const eth_getBlockByNumber: RpcMethod = (ctx, params) => {
  const [ref, full] = expectParams(params, 2)
  const reference = parseBlockReference(ref, 0)
  const fullTransactions = parseBoolean(full, 1)
  const height = findHeight(ctx, reference)
  const history = height === undefined ? undefined : historyAt(ctx.chain, height)
  if (history !== undefined) return remoteBlockAt(history, height!, fullTransactions)
  const block = height === undefined ? undefined : ctx.chain.blockAt(height)
  return block === undefined ? null : formatBlock(block, fullTransactions)
}
