import type { RpcMethod } from '../context.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { expectParams, parseHash } from '../params.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * hardhat_dropTransaction(hash): removes a pending transaction, EVM or native; true
 * when it was pending, false when unknown. A mined one is -32602, as Hardhat answers.
 * Later transactions of the sender stay, queued behind the freed nonce.
 */
export const hardhat_dropTransaction: RpcMethod = async (ctx, params) => {
  const [value] = expectParams(params, 1)
  const hash = toHexRaw(parseHash(value, 0))
  if (ctx.chain.transaction(hash) !== undefined) {
    throw new RpcError(RpcErrorCode.InvalidParams, `Transaction ${toHex(parseHash(value, 0))} cannot be removed because it's already mined`)
  }
  return (await ctx.chain.dropPending({ hashes: [hash] })).length === 1
}
