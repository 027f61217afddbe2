import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * anvil_dropTransaction(hash): removes a pending transaction, EVM or native; the hash
 * when it was pending, null otherwise (mined or unknown), as Anvil answers. Later
 * transactions of the sender stay, queued behind the freed nonce.
 */
export const anvil_dropTransaction = defineMethod({
  name: 'anvil_dropTransaction',
  params: [hash('hash')],
  fork: { kind: 'local' },
  handler: async (ctx, [bytes]) => {
    const dropped = await ctx.chain.dropPending({ hashes: [toHexRaw(bytes)] })
    return dropped.length === 1 ? toHex(bytes) : null
  },
})
