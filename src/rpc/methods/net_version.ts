import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** net_version: the chain id as a decimal string ("12345" on solo), not the network id (reference §6.2); a fork answers its remote's. */
export const net_version: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return ctx.netVersion ?? String(ctx.chainId)
}
