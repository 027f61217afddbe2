import { findHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseBlockReference } from '../params.ts'

/** eth_getUncleCountByBlockNumber: "0x0" (the chain has no uncles); null for an unknown block. */
export const eth_getUncleCountByBlockNumber: RpcMethod = (ctx, params) => {
  const [ref] = expectParams(params, 1)
  return findHeight(ctx, parseBlockReference(ref, 0)) === undefined ? null : '0x0'
}
