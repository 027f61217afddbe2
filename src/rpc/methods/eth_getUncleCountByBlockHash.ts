import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { toHexRaw } from '../../util/hex.ts'

/** eth_getUncleCountByBlockHash: "0x0" (the chain has no uncles, reference §6.2); null for an unknown block. */
export const eth_getUncleCountByBlockHash: RpcMethod = (ctx, params) => {
  const [hash] = expectParams(params, 1)
  return ctx.chain.blockByHash(toHexRaw(parseHash(hash, 0))) === undefined ? null : '0x0'
}
