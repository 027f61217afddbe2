import { defineMethod } from '../declare.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { hash } from '../paramSpecs.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * hardhat_dropTransaction(hash): removes a pending transaction, EVM or native; true
 * when it was pending, false when unknown. A mined one is -32602, as Hardhat answers.
 * Later transactions of the sender stay, queued behind the freed nonce.
 */
export const hardhat_dropTransaction = defineMethod({
  name: 'hardhat_dropTransaction',
  params: [hash('hash')],
  fork: { kind: 'local' },
  handler: async (ctx, [bytes]) => {
    const key = toHexRaw(bytes)
    if (ctx.chain.transaction(key) !== undefined) {
      throw new RpcError(RpcErrorCode.InvalidParams, `Transaction ${toHex(bytes)} cannot be removed because it's already mined`)
    }
    return (await ctx.chain.dropPending({ hashes: [key] })).length === 1
  },
})
