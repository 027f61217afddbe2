import type { RpcMethod } from '../context.ts'
import { expectParams, parseBlockReference } from '../params.ts'

/** eth_getUncleCountByBlockNumber: "0x0": the chain has no uncles. */
export const eth_getUncleCountByBlockNumber: RpcMethod = (_ctx, params) => {
  const [ref] = expectParams(params, 1)
  parseBlockReference(ref, 0)
  return '0x0'
}
