import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** eth_mining: false (reference §6.2). */
export const eth_mining: RpcMethod = (_ctx, params) => {
  expectParams(params, 0)
  return false
}
