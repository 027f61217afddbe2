import { findHeight } from '../blockResolution.ts'
import { defineMethod, type ParamSpec } from '../declare.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { optional, param } from '../paramSpecs.ts'
import { parseBlockReference, parseNumberish, type BlockReference } from '../params.ts'
import type { BlockSpecifier, Numberish, RpcFeeHistory } from '../../core/rpcObjects.ts'
import { toQuantity } from '../../util/hex.ts'
import { EVM_TX_GAS_CAP } from '../../core/constants.ts'

/** go-ethereum's cap on the blocks one request covers (eth/gasprice FeeHistory, MaxHeaderHistory). */
const MAX_BLOCK_COUNT = 1024

/**
 * eth_feeHistory(blockCount, newestBlock, rewardPercentiles?): go-ethereum's answer for
 * blocks without a base fee (the chain has no EIP-1559): `oldestBlock`, `baseFeePerGas`
 * (blockCount + 1 zeros, the next block's included), `gasUsedRatio` (gasUsed / gasLimit
 * of each block, gasLimit being the blocks' 6,000,000) and, when percentiles are given,
 * `reward` (one zero per percentile per block). The count is clipped to 1024 and to the
 * blocks that exist, as geth does; a count of 0 answers `{ oldestBlock: "0x0" }`.
 * Tools that read it before sending (Foundry's cast) then build a typed transaction,
 * which the chain refuses with a message naming the legacy flag.
 * Errors: -32602 for malformed arguments; -32000 "invalid reward percentile: …" (geth's
 * text) for percentiles outside [0, 100] or decreasing, "request beyond head block: …"
 * for a block above the tip, "header not found" for an unknown block hash.
 *
 * Local on a fork: the real node does not serve eth_feeHistory (reference §6.2: -32601),
 * so the remote cannot be asked; blocks below the fork block read as empty.
 */
export const eth_feeHistory = defineMethod({
  name: 'eth_feeHistory',
  params: [blockCount('blockCount'), newestBlock('newestBlock'), optional(rewardPercentiles('rewardPercentiles'), [])],
  fork: { kind: 'local' },
  handler: (ctx, [requested, newest, percentiles]) => {
    if (requested === 0) return { oldestBlock: '0x0' }
    if (typeof newest !== 'number') {
      throw new RpcError(RpcErrorCode.ServerError, 'number' in newest ? `request beyond head block: requested ${newest.number}, head ${ctx.chain.height}` : 'header not found')
    }
    const count = Math.min(requested, MAX_BLOCK_COUNT, newest + 1)
    const oldest = newest - count + 1
    const gasUsedRatio: number[] = []
    for (let h = oldest; h <= newest; h++) {
      // Reserved empty blocks are not built just to read a zero.
      const gasUsed = ctx.chain.isPendingEmpty(h) ? 0n : (ctx.chain.blockAt(h)?.gasUsed ?? 0n)
      gasUsedRatio.push(Number(gasUsed) / Number(EVM_TX_GAS_CAP))
    }
    const result: RpcFeeHistory = {
      oldestBlock: toQuantity(oldest),
      baseFeePerGas: new Array<`0x${string}`>(count + 1).fill('0x0'),
      gasUsedRatio,
    }
    if (percentiles.length > 0) result.reward = gasUsedRatio.map(() => percentiles.map(() => '0x0' as const))
    return result
  },
})

/** The block count: a JSON number or QUANTITY (rpc/params.ts `parseNumberish`), not negative. */
function blockCount(name: string): ParamSpec<Numberish, number> {
  return param(name, (value, index) => {
    const n = parseNumberish(value, index)
    if (n < 0) throw invalidArgument(index, `negative block count ${n}`)
    return n
  })
}

/**
 * The newest block: its height, or the unresolved reference when the chain has none,
 * so that the handler words the error after answering a count of 0 (geth's order).
 */
function newestBlock(name: string): ParamSpec<BlockSpecifier, number | BlockReference> {
  return param(name, (value, index, ctx) => {
    const ref = parseBlockReference(value, index)
    return findHeight(ctx, ref) ?? ref
  })
}

/** Reward percentiles: floats in [0, 100], non-decreasing (go-ethereum's rule and text). */
function rewardPercentiles(name: string): ParamSpec<number[], number[]> {
  return param(name, (value, index) => {
    if (!Array.isArray(value) || value.some((p) => typeof p !== 'number' || !Number.isFinite(p))) {
      throw invalidArgument(index, 'json: cannot unmarshal into Go value of type []float64')
    }
    const list = value as number[]
    list.forEach((p, i) => {
      if (p < 0 || p > 100) throw new RpcError(RpcErrorCode.ServerError, `invalid reward percentile: ${p}`)
      if (i > 0 && list[i - 1]! > p) {
        throw new RpcError(RpcErrorCode.ServerError, `invalid reward percentile: #${i - 1}:${list[i - 1]} > #${i}:${p}`)
      }
    })
    return list
  })
}
