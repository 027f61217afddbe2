import type { RpcMethod } from '../context.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { expectParams, parseQuantity } from '../params.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_getFilterChanges: what the filter saw since it was last polled. Unknown or expired id: -32000 "filter not found". */
export const eth_getFilterChanges: RpcMethod = (ctx, params) => {
  const [id] = expectParams(params, 1)
  const filter = ctx.filters.get(toQuantity(parseQuantity(id, 0)))
  if (filter === undefined) throw new RpcError(RpcErrorCode.ServerError, 'filter not found')
  return ctx.filters.changes(ctx.chain, filter)
}
