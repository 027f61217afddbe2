import { defineMethod } from '../declare.ts'
import { blockNumberLookup, quantity } from '../paramSpecs.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_getRawTransactionByBlockNumberAndIndex: as the ByBlockHash variant, the block
 * named by QUANTITY|TAG; "0x" where go-ethereum answers empty bytes. At or below a
 * fork's block, the remote's (rpc/forkPolicy.ts).
 */
export const eth_getRawTransactionByBlockNumberAndIndex = defineMethod({
  name: 'eth_getRawTransactionByBlockNumberAndIndex',
  params: [blockNumberLookup('block'), quantity('index')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'header' },
  handler: (ctx, [height, i]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    const tx = block !== undefined && i < BigInt(block.transactions.length) ? block.transactions[Number(i)] : undefined
    return tx === undefined || tx.kind !== 'evm' ? '0x' : toHex(tx.tx.rlp)
  },
})
