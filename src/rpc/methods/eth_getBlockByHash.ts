import type { RpcMethod } from '../context.ts'
import { expectParams, parseBoolean, parseHash } from '../params.ts'
import { formatBlock } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/** eth_getBlockByHash: block object, or null when none (spec). */
export const eth_getBlockByHash: RpcMethod = (ctx, params) => {
  const [hash, full] = expectParams(params, 2)
  const block = ctx.chain.blockByHash(toHexRaw(parseHash(hash, 0)))
  const fullTransactions = parseBoolean(full, 1)
  return block === undefined ? null : formatBlock(block, fullTransactions)
}
