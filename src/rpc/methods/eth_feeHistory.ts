import { findHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { expectParams, parseBlockReference, parseNumberish } from '../params.ts'
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
 */
export const eth_feeHistory: RpcMethod = (ctx, params) => {
  const [countArg, newestArg, percentilesArg] = expectParams(params, 2, 3)
  const requested = parseNumberish(countArg, 0)
  if (requested < 0) throw invalidArgument(0, `negative block count ${requested}`)
  const ref = parseBlockReference(newestArg, 1)
  const percentiles = parsePercentiles(percentilesArg)
  if (requested === 0) return { oldestBlock: '0x0' }
  const newest = findHeight(ctx, ref)
  if (newest === undefined) {
    throw new RpcError(RpcErrorCode.ServerError, 'number' in ref ? `request beyond head block: requested ${ref.number}, head ${ctx.chain.height}` : 'header not found')
  }
  const count = Math.min(requested, MAX_BLOCK_COUNT, newest + 1)
  const oldest = newest - count + 1
  const gasUsedRatio: number[] = []
  for (let h = oldest; h <= newest; h++) {
    // Reserved empty blocks are not built just to read a zero.
    const gasUsed = ctx.chain.isPendingEmpty(h) ? 0n : (ctx.chain.blockAt(h)?.gasUsed ?? 0n)
    gasUsedRatio.push(Number(gasUsed) / Number(EVM_TX_GAS_CAP))
  }
  const result: { oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward?: string[][] } = {
    oldestBlock: toQuantity(oldest),
    baseFeePerGas: new Array<string>(count + 1).fill('0x0'),
    gasUsedRatio,
  }
  if (percentiles.length > 0) result.reward = gasUsedRatio.map(() => percentiles.map(() => '0x0'))
  return result
}

/** Reward percentiles: floats in [0, 100], non-decreasing (go-ethereum's rule and text). */
function parsePercentiles(value: unknown): number[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'number' || !Number.isFinite(p))) {
    throw invalidArgument(2, 'json: cannot unmarshal into Go value of type []float64')
  }
  const list = value as number[]
  list.forEach((p, i) => {
    if (p < 0 || p > 100) throw new RpcError(RpcErrorCode.ServerError, `invalid reward percentile: ${p}`)
    if (i > 0 && list[i - 1]! > p) {
      throw new RpcError(RpcErrorCode.ServerError, `invalid reward percentile: #${i - 1}:${list[i - 1]} > #${i}:${p}`)
    }
  })
  return list
}
