import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddressText } from '../params.ts'

/** hardhat_stopImpersonatingAccount / anvil_stopImpersonatingAccount: ends an impersonation; true. */
export const hardhat_stopImpersonatingAccount: RpcMethod = (ctx, params) => {
  const [address] = expectParams(params, 1)
  ctx.controls.stopImpersonating(parseAddressText(address, 0))
  return true
}
