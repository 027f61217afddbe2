import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddressText, parseData } from '../params.ts'

/** hardhat_setCode / anvil_setCode: replaces the EVM code of an address; true. */
export const hardhat_setCode: RpcMethod = async (ctx, params) => {
  const [address, code] = expectParams(params, 2)
  await ctx.controls.setCode(parseAddressText(address, 0), parseData(code, 1))
  return true
}
