import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { historyForBlockHash, remoteForBlockHash } from '../forkHistory.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * eth_getUncleCountByBlockHash: "0x0" (the chain has no uncles, reference §6.2); null
 * for an unknown block. On a fork, a block it did not build is the remote's
 * (rpc/forkHistory.ts).
 */
export const eth_getUncleCountByBlockHash: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  const bytes = parseHash(hash, 0)
  const history = historyForBlockHash(ctx.chain, toHexRaw(bytes))
  if (history !== undefined) return remoteForBlockHash(history, toHex(bytes), 'eth_getUncleCountByBlockHash', [toHex(bytes)])
  return ctx.chain.blockByHash(toHexRaw(bytes)) === undefined ? null : '0x0'
}
