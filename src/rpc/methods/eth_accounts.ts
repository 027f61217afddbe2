import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { toHex } from '../../util/hex.ts'

/** eth_accounts: the dev accounts (the real node has none; every devnet does). */
export const eth_accounts: RpcMethod = (ctx, params) => {
  expectParams(params, 0)
  return ctx.accountOrder.map((a) => toHex(a))
}
