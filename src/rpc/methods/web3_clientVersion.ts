import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** web3_clientVersion: the devnet's name and version. */
export const web3_clientVersion: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return ctx.clientVersion
}
