import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'

/** eth_protocolVersion: "0x41" as the real node answers (reference §6.2). */
export const eth_protocolVersion: RpcMethod = (_ctx, params) => {
  expectParams(params, 0)
  return '0x41'
}
