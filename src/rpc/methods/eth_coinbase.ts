import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** eth_coinbase: the zero address (reference §6.2). */
export const eth_coinbase: RpcMethod = (_ctx, params) => {
  expectParams(params, 0)
  return `0x${'00'.repeat(20)}`
}
