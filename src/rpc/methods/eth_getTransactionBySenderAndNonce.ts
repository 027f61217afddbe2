import { defineMethod } from '../declare.ts'
import { address, quantity } from '../paramSpecs.ts'
import { formatTransaction } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionBySenderAndNonce: the EVM transaction `sender` sent with `nonce`,
 * pending (block fields null) or mined, or null (Anvil's
 * crates/anvil/src/eth/api.rs transaction_by_sender_and_nonce: the pool first, then
 * the chain). A nonce at or above the sender's latest nonce can only be pending; below
 * it, the blocks are searched newest first. Local: on a fork, the remote's
 * transactions are not searched (the remote has no such method to ask), so a sender's
 * transactions before the fork block answer null.
 */
export const eth_getTransactionBySenderAndNonce = defineMethod({
  name: 'eth_getTransactionBySenderAndNonce',
  params: [address('sender'), quantity('nonce')],
  fork: { kind: 'local' },
  handler: (ctx, [sender, nonce]) => {
    const key = toHexRaw(sender)
    const pending = ctx.chain.mempool.bySenderNonce(key, nonce)
    if (pending !== undefined) return formatTransaction(pending, undefined)
    const chain = ctx.chain
    if (nonce >= chain.account(sender).nonce) return null
    const forkHeight = chain.fork?.history?.height
    const lowest = forkHeight === undefined ? 0 : forkHeight + 1
    for (let height = chain.height; height >= lowest; height--) {
      // An empty block not built yet holds nothing: building it to look would cost
      // about 700 bytes a block (a search past hardhat_mine(200000) built 157 MB).
      if (chain.isPendingEmpty(height)) continue
      const block = chain.blockAt(height)
      if (block === undefined) continue
      for (let index = 0; index < block.transactions.length; index++) {
        const tx = block.transactions[index]!
        if (tx.kind === 'evm' && tx.tx.nonce === nonce && toHexRaw(tx.from) === key) return formatTransaction(tx, { block, index })
      }
    }
    return null
  },
})
