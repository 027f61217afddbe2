import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** eth_newBlockFilter: installs a filter reporting the hashes of new blocks. */
export const eth_newBlockFilter: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return ctx.filters.installBlocks(ctx.chain)
}
