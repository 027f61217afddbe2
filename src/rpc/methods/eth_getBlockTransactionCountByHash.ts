import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { toHexRaw, toQuantity } from '../../util/hex.ts'

/** eth_getBlockTransactionCountByHash: all transactions of the block, native and EVM (reference §6.2); null for an unknown block. */
export const eth_getBlockTransactionCountByHash: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const block = ctx.chain.blockByHash(toHexRaw(parseHash(hash, 0)))
  return block === undefined ? null : toQuantity(block.transactions.length)
}
