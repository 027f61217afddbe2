import { RLP } from '@ethereumjs/rlp'
import { defineMethod } from '../declare.ts'
import { blockNumberOrHash } from '../paramSpecs.ts'
import { toHex } from '../../util/hex.ts'
import { blockOf, headerRlpFields } from './debug_getRawHeader.ts'
import { formatHeader } from './eth_getHeaderByHash.ts'
import { withStateRoot } from '../stateRoots.ts'

/**
 * debug_getRawBlock(block): the RLP of the block in the EVM view, as go-ethereum lays a
 * block out (core/types/block.go `extblock`: [header, transactions, uncles]): the header
 * of debug_getRawHeader, the block's EVM transactions (legacy, each its signed RLP
 * list, in block order; native transactions have no Ethereum encoding and are left out,
 * as eth_getBlockByNumber's `transactions` leaves them out), no uncles. Its header's
 * keccak256 is not the native block hash (debug_getRawHeader). Null for an unknown
 * block; at or below a fork's block, the remote's (rpc/forkPolicy.ts).
 */
export const debug_getRawBlock = defineMethod({
  name: 'debug_getRawBlock',
  params: [blockNumberOrHash('block')],
  fork: { kind: 'block', by: 'numberOrHash', param: 0, check: 'header' },
  handler: async (ctx, [at]) => {
    const block = blockOf(ctx, at)
    if (block === undefined) return null
    const transactions = block.transactions.flatMap((tx) => (tx.kind === 'evm' ? [RLP.decode(tx.tx.rlp) as Uint8Array[]] : []))
    const header = await withStateRoot(ctx, block, formatHeader(block))
    return toHex(RLP.encode([headerRlpFields(header), transactions, []]))
  },
})
