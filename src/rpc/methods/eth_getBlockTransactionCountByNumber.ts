import { findHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseBlockReference } from '../params.ts'
import { historyAt, remoteBlockAt, remoteForBlockHash } from '../forkHistory.ts'
import { toQuantity, type Hex } from '../../util/hex.ts'

/**
 * eth_getBlockTransactionCountByNumber: QUANTITY|TAG as the spec says (the real node
 * takes only JSON numbers); null for an unknown block. At or below a fork's block, the
 * remote's count, asked by the block's hash (which every remote takes, the real node
 * too; rpc/forkHistory.ts).
 */
export const eth_getBlockTransactionCountByNumber: RpcMethod = (ctx, params) => {
  const [ref] = expectParams(params, 1)
  const height = findHeight(ctx, parseBlockReference(ref, 0))
  const history = height === undefined ? undefined : historyAt(ctx.chain, height)
  if (history !== undefined) {
    const block = remoteBlockAt(history, height!, false) as { hash: Hex } | null
    return block === null ? null : remoteForBlockHash(history, block.hash, 'eth_getBlockTransactionCountByHash', [block.hash])
  }
  const block = height === undefined ? undefined : ctx.chain.blockAt(height)
  return block === undefined ? null : toQuantity(block.transactions.length)
}
