import { defineMethod } from '../declare.ts'
import { blockNumberOrHash } from '../paramSpecs.ts'
import { toHex } from '../../util/hex.ts'
import { blockOf } from './debug_getRawHeader.ts'

/**
 * debug_getRawTransactions(block): the block's EVM transactions, each its signed RLP
 * (legacy, 0x-hex), in block order, as reth and Anvil answer it (foundry
 * crates/anvil/src/eth/api.rs `raw_transactions`: an unknown block is an empty list).
 * Native transactions have no Ethereum encoding and are left out, as
 * debug_getRawBlock leaves them out. At or below a fork's block, the remote's
 * (rpc/forkPolicy.ts).
 */
export const debug_getRawTransactions = defineMethod({
  name: 'debug_getRawTransactions',
  params: [blockNumberOrHash('block')],
  fork: { kind: 'block', by: 'numberOrHash', param: 0, check: 'header' },
  handler: (ctx, [at]) => {
    const block = blockOf(ctx, at)
    if (block === undefined) return []
    return block.transactions.flatMap((tx) => (tx.kind === 'evm' ? [toHex(tx.tx.rlp)] : []))
  },
})
