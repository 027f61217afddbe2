import { defineMethod } from '../declare.ts'
import { withStateRoot } from '../stateRoots.ts'
import { blockNumberLookup, lenient } from '../paramSpecs.ts'
import { formatBlock } from '../format.ts'
import type { ChainBlock } from '../../chain/block.ts'
import type { RpcContext } from '../context.ts'
import type { OtsBlockDetails } from '../../core/rpcObjects.ts'
import { toQuantity } from '../../util/hex.ts'

/** Wei per gas-token v1 unit: a record's GasConsumed is in 1e-9 gas tokens (reference §1.4.6). */
const WEI_PER_V1_UNIT = 1_000_000_000n

/**
 * Otterscan's block details of `block` (otterscan docs/custom-jsonrpc.md, Erigon
 * turbo/jsonrpc otterscan_api.go getBlockDetailsImpl): the block object without
 * `transactions`, with `transactionCount` (all its transactions, native ones included,
 * as eth_getBlockTransactionCountByHash counts them and ots_getBlockTransactions lists
 * them) and `logsBloom` null; `issuance` all zero (the chain mints no block
 * reward); `totalFees`, the fees of every transaction of the block, native ones
 * included, in wei.
 */
export function formatBlockDetails(block: ChainBlock): OtsBlockDetails {
  const { transactions: _hashes, ...rest } = formatBlock(block, false)
  const totalFees = block.records.reduce((sum, record) => sum + record.gasConsumed * WEI_PER_V1_UNIT, 0n)
  return {
    block: { ...rest, logsBloom: null, transactionCount: block.transactions.length },
    issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
    totalFees: toQuantity(totalFees),
  }
}

/** `details` with its block's `stateRoot` as eth_getBlockByNumber serves it (option stateRoot, rpc/stateRoots.ts). */
export async function withDetailsStateRoot(ctx: RpcContext, block: ChainBlock, details: OtsBlockDetails): Promise<OtsBlockDetails> {
  return { ...details, block: await withStateRoot(ctx, block, details.block) }
}

/**
 * ots_getBlockDetails: `{ block, issuance, totalFees }` of the block by number (the block
 * without `transactions`, with `transactionCount` and a null `logsBloom`; zero issuance;
 * the fees in wei), or null when none: {@link formatBlockDetails}. Local on a fork (the
 * remote serves no ots_ method).
 */
export const ots_getBlockDetails = defineMethod({
  name: 'ots_getBlockDetails',
  params: [lenient(blockNumberLookup('block'))],
  fork: { kind: 'local' },
  handler: (ctx, [height]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    return block === undefined ? null : withDetailsStateRoot(ctx, block, formatBlockDetails(block))
  },
})
