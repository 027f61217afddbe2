import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'

/** eth_getUncleCountByBlockHash: "0x0": the chain has no uncles (reference §6.2). */
export const eth_getUncleCountByBlockHash: RpcMethod = (_ctx, params) => {
  const [hash] = expectParams(params, 1)
  parseHash(hash, 0)
  return '0x0'
}
