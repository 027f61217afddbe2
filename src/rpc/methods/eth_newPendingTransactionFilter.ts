import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** eth_newPendingTransactionFilter: installs a filter reporting the hashes of newly accepted transactions. */
export const eth_newPendingTransactionFilter: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return ctx.filters.installPending(ctx.chain)
}
