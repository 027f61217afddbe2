import { defineMethod } from '../declare.ts'
import { hash, quantity } from '../paramSpecs.ts'
import { formatTransaction } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getTransactionByBlockHashAndIndex: the transaction at an index of the native
 * block (native transactions count, reference §6.4), or null. The real node's version
 * is broken; this is the standard behaviour (reference decisions table). On a fork, a
 * block it did not build is the remote's (rpc/forkPolicy.ts).
 */
export const eth_getTransactionByBlockHashAndIndex = defineMethod({
  name: 'eth_getTransactionByBlockHashAndIndex',
  params: [hash('hash'), quantity('index')],
  fork: { kind: 'block', by: 'hash', param: 0, check: 'blockNumber' },
  handler: (ctx, [bytes, i]) => {
    const block = ctx.chain.blockByHash(toHexRaw(bytes))
    const tx = block !== undefined && i < BigInt(block.transactions.length) ? block.transactions[Number(i)] : undefined
    return tx === undefined || tx.kind !== 'evm' ? null : formatTransaction(tx, { block: block!, index: Number(i) })
  },
})
