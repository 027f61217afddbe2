import { RLP } from '@ethereumjs/rlp'
import { defineMethod } from '../declare.ts'
import { withStateRoot } from '../stateRoots.ts'
import type { RpcHeader } from '../../core/rpcObjects.ts'
import { blockNumberOrHash } from '../paramSpecs.ts'
import type { ChainBlock } from '../../chain/block.ts'
import { fromHex, toHex, toHexRaw } from '../../util/hex.ts'
import { formatHeader } from './eth_getHeaderByHash.ts'

/** A QUANTITY as RLP wants it: big-endian bytes without leading zeros (0 is empty). */
function unpadded(quantity: string): Uint8Array {
  const value = BigInt(quantity)
  if (value === 0n) return new Uint8Array(0)
  const hex = value.toString(16)
  return fromHex(`0x${hex.length % 2 === 0 ? hex : `0${hex}`}`)
}

/**
 * The header of the EVM view as go-ethereum's RLP lays a pre-London header out
 * (core/types/block.go `Header`: parentHash, sha3Uncles, miner, stateRoot,
 * transactionsRoot, receiptsRoot, logsBloom, difficulty, number, gasLimit, gasUsed,
 * timestamp, extraData, mixHash, nonce), with the values eth_getBlockByNumber answers
 * (`h`: its header object; zero stateRoot unless option stateRoot is 'merkle', miner, difficulty; the empty receipts root; the 6,000,000 gas cap
 * as gasLimit). The chain's block hash is the native header's (reference §6.3), so the
 * keccak256 of this RLP is not the block's `hash`: it is the EVM view, not the
 * consensus header, which is native.
 */
export function headerRlpFields(h: RpcHeader): (Uint8Array | Uint8Array[])[] {
  return [
    fromHex(h.parentHash),
    fromHex(h.sha3Uncles),
    fromHex(h.miner),
    fromHex(h.stateRoot),
    fromHex(h.transactionsRoot),
    fromHex(h.receiptsRoot),
    fromHex(h.logsBloom),
    unpadded(h.difficulty),
    unpadded(h.number),
    unpadded(h.gasLimit),
    unpadded(h.gasUsed),
    unpadded(h.timestamp),
    fromHex(h.extraData),
    fromHex(h.mixHash),
    fromHex(h.nonce),
  ]
}

/** The block named by number, tag or hash, or undefined. */
export function blockOf(
  ctx: { chain: { blockByHash(hash: string): ChainBlock | undefined; blockAt(height: number): ChainBlock | undefined } },
  at: number | Uint8Array | undefined,
): ChainBlock | undefined {
  return at === undefined ? undefined : at instanceof Uint8Array ? ctx.chain.blockByHash(toHexRaw(at)) : ctx.chain.blockAt(at)
}

/**
 * debug_getRawHeader(block): the RLP of the block's header in the EVM view (see
 * {@link headerRlpFields}: go-ethereum's pre-London layout, eth_getBlockByNumber's
 * values; its keccak256 is not the native block hash), as go-ethereum's
 * DebugAPI.GetRawHeader answers it (internal/ethapi/api.go); null for an unknown
 * block. At or below a fork's block, the remote's (rpc/forkPolicy.ts).
 */
export const debug_getRawHeader = defineMethod({
  name: 'debug_getRawHeader',
  params: [blockNumberOrHash('block')],
  fork: { kind: 'block', by: 'numberOrHash', param: 0, check: 'header' },
  handler: async (ctx, [at]) => {
    const block = blockOf(ctx, at)
    return block === undefined ? null : toHex(RLP.encode(headerRlpFields(await withStateRoot(ctx, block, formatHeader(block)))))
  },
})
