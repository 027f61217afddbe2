import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** eth_hashrate: "0x0" (reference §6.2). */
export const eth_hashrate: RpcMethod = (_ctx, params) => {
  expectParams(params, 0)
  return '0x0'
}
