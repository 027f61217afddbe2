import { defineMethod } from '../declare.ts'
import { hash, quantity } from '../paramSpecs.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * eth_getRawTransactionByBlockHashAndIndex: the signed RLP of the EVM transaction at
 * `index` of the block (indices count every transaction of the block, as
 * eth_getTransactionByBlockHashAndIndex's do); "0x" for an unknown block, an index out
 * of range or a native transaction, as go-ethereum answers an empty hexutil.Bytes
 * (internal/ethapi/api.go newRPCRawTransactionFromBlockIndex). On a fork, a block it did
 * not build is the remote's, placed by its header (rpc/forkPolicy.ts).
 */
export const eth_getRawTransactionByBlockHashAndIndex = defineMethod({
  name: 'eth_getRawTransactionByBlockHashAndIndex',
  params: [hash('hash'), quantity('index')],
  fork: { kind: 'block', by: 'hash', param: 0, check: 'header' },
  handler: (ctx, [bytes, i]) => {
    const block = ctx.chain.blockByHash(toHexRaw(bytes))
    const tx = block !== undefined && i < BigInt(block.transactions.length) ? block.transactions[Number(i)] : undefined
    return tx === undefined || tx.kind !== 'evm' ? '0x' : toHex(tx.tx.rlp)
  },
})
