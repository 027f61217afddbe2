import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddressText } from '../params.ts'

/** hardhat_impersonateAccount / anvil_impersonateAccount: eth_sendTransaction may send as this address; true. */
export const hardhat_impersonateAccount: RpcMethod = (ctx, params) => {
  const [address] = expectParams(params, 1)
  ctx.controls.impersonate(parseAddressText(address, 0))
  return true
}
