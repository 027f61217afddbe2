import { defineMethod } from '../declare.ts'
import { address, lenient, quantity } from '../paramSpecs.ts'
import { sentWithNonce } from '../otsSearch.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * ots_getTransactionBySenderAndNonce: the hash of the mined EVM transaction `sender`
 * sent with `nonce`, or null; a transaction still pending answers null (otterscan
 * docs/custom-jsonrpc.md; Anvil crates/anvil/src/eth/otterscan/api.rs searches mined
 * transactions, newest first). Only the sender's own transactions in the address index
 * are looked at (chain/addressIndex.ts), not every block. Local: on a fork, the
 * remote's transactions before the fork block answer null.
 */
export const ots_getTransactionBySenderAndNonce = defineMethod({
  name: 'ots_getTransactionBySenderAndNonce',
  params: [address('sender'), lenient(quantity('nonce'))],
  fork: { kind: 'local' },
  handler: (ctx, [sender, nonce]) => {
    const key = toHexRaw(sender)
    const touching = ctx.chain.transactionsTouching(key)
    for (let i = touching.length - 1; i >= 0; i--) {
      const { height, index } = touching[i]!
      const tx = ctx.chain.blockAt(height)!.transactions[index]!
      if (sentWithNonce(tx, key, nonce)) return toHex(tx.hash)
    }
    return null
  },
})
