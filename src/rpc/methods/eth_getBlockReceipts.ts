import type { Chain } from '../../chain/chain.ts'
import type { RpcReceipt } from '../../core/rpcObjects.ts'
import { defineMethod } from '../declare.ts'
import { blockNumberOrHash } from '../paramSpecs.ts'
import { formatReceipt } from '../format.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getBlockReceipts: the receipts of the block's EVM transactions in block order, as
 * eth_getTransactionReceipt renders them (fee logs included); null for an unknown
 * block (go-ethereum internal/ethapi/api.go GetBlockReceipts). A native transaction has
 * no EVM receipt (reference §6.2) and is left out. The block is a QUANTITY|TAG, a bare
 * hash (what viem's getBlockReceipts({ blockHash }) sends) or an EIP-1898 object, as
 * go-ethereum's BlockNumberOrHash takes it; at or below a fork's block, the remote's
 * (rpc/forkPolicy.ts), placed by number or by hash as given.
 */
export const eth_getBlockReceipts = defineMethod({
  name: 'eth_getBlockReceipts',
  params: [blockNumberOrHash('block')],
  fork: { kind: 'block', by: 'numberOrHash', param: 0, check: 'header' },
  handler: (ctx, [at]) => blockReceipts(ctx.chain, at),
})

/**
 * The receipts of the EVM transactions of the block at height `at` or with raw hash
 * `at`, in block order (native transactions left out), or null for a block the chain
 * does not have. debug_getRawReceipts encodes the same list.
 */
export function blockReceipts(chain: Chain, at: number | Uint8Array | undefined): RpcReceipt[] | null {
  const block = at === undefined ? undefined : at instanceof Uint8Array ? chain.blockByHash(toHexRaw(at)) : chain.blockAt(at)
  if (block === undefined) return null
  return block.transactions.flatMap((tx, index) => (tx.kind === 'evm' ? [formatReceipt(tx, block.records[index]!, { block, index })] : []))
}
