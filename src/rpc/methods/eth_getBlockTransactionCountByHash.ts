import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { historyForBlockHash, remoteForBlockHash } from '../forkHistory.ts'
import { toHex, toHexRaw, toQuantity } from '../../util/hex.ts'

/**
 * eth_getBlockTransactionCountByHash: all transactions of the block, native and EVM
 * (reference §6.2); null for an unknown block. On a fork, a block it did not build is
 * the remote's (rpc/forkHistory.ts).
 */
export const eth_getBlockTransactionCountByHash: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const bytes = parseHash(hash, 0)
  const history = historyForBlockHash(ctx.chain, toHexRaw(bytes))
  if (history !== undefined) return remoteForBlockHash(history, toHex(bytes), 'eth_getBlockTransactionCountByHash', [toHex(bytes)])
  const block = ctx.chain.blockByHash(toHexRaw(bytes))
  return block === undefined ? null : toQuantity(block.transactions.length)
}
