import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * anvil_dropTransaction(hash): removes a pending transaction, EVM or native; the hash
 * when it was pending, null otherwise (mined or unknown), as Anvil answers. Later
 * transactions of the sender stay, queued behind the freed nonce.
 */
export const anvil_dropTransaction: RpcMethod = async (ctx, params) => {
  const [value] = expectParams(params, 1)
  const hash = parseHash(value, 0)
  const dropped = await ctx.chain.dropPending({ hashes: [toHexRaw(hash)] })
  return dropped.length === 1 ? toHex(hash) : null
}
