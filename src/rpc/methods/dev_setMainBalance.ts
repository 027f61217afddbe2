import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddressText, parseQuantity } from '../params.ts'

/**
 * dev_setMainBalance (dualnet): the main-token balance in v2 units (1e-9 main, the
 * `main` of balancev2) of an address in either rendering; true.
 */
export const dev_setMainBalance: RpcMethod = async (ctx, params) => {
  const [address, amount] = expectParams(params, 2)
  await ctx.controls.setBalance(parseAddressText(address, 0), { main: parseQuantity(amount, 1) })
  return true
}
