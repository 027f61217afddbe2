import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseLogCriteria } from '../logQuery.ts'

/** eth_newFilter: installs a log filter; eth_getFilterChanges then reports logs of blocks mined after it. */
export const eth_newFilter: RpcMethod = (ctx, params) => {
  const [filter] = expectParams(params, 1)
  return ctx.filters.installLogs(ctx.chain, parseLogCriteria(ctx, filter, 0))
}
