import type { RpcMethod } from '../context.ts'
import { expectParams, parseBoolean, parseHash } from '../params.ts'
import { formatBlock } from '../format.ts'
import { historyForBlockHash, remoteObject } from '../forkHistory.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/** eth_getBlockByHash: block object, or null when none (spec); on a fork, a block it did not build is the remote's (rpc/forkHistory.ts). */
export const eth_getBlockByHash: RpcMethod = (ctx, params) => {
  const [hash, full] = expectParams(params, 2)
  const bytes = parseHash(hash, 0)
  const fullTransactions = parseBoolean(full, 1)
  const history = historyForBlockHash(ctx.chain, toHexRaw(bytes))
  if (history !== undefined) return remoteObject(history, 'eth_getBlockByHash', [toHex(bytes), fullTransactions], 'number')
  const block = ctx.chain.blockByHash(toHexRaw(bytes))
  return block === undefined ? null : formatBlock(block, fullTransactions)
}
