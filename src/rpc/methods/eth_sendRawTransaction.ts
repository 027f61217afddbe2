import type { RpcMethod } from '../context.ts'
import { expectParams, parseData } from '../params.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_sendRawTransaction: a signed legacy EIP-155 transaction (reference §6.5).
 * With automine it is mined before the hash is returned.
 */
export const eth_sendRawTransaction: RpcMethod = async (ctx, params) => {
  const [raw] = expectParams(params, 1)
  return toHex(await ctx.chain.submitRawTransaction(parseData(raw, 0)))
}
