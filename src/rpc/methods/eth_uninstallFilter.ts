import type { RpcMethod } from '../context.ts'
import { expectParams, parseQuantity } from '../params.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_uninstallFilter: removes a filter; whether it existed. */
export const eth_uninstallFilter: RpcMethod = (ctx, params) => {
  const [id] = expectParams(params, 1)
  return ctx.filters.uninstall(toQuantity(parseQuantity(id, 0)))
}
