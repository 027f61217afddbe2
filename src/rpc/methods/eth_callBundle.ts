import { keccak256 } from '../../util/hash.ts'
import { defineMethod } from '../declare.ts'
import { param, stateBlock } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { parseAddress, parseData, parseQuantity } from '../params.ts'
import type { RpcContext } from '../context.ts'
import type { RpcCallBundle, RpcCallBundleResult } from '../../core/rpcObjects.ts'
import { decodeLegacyTransaction, type LegacyTransaction } from '../../evm/legacyTransaction.ts'
import type { BlockOverrides } from '../../evm/overrides.ts'
import { describeValue } from '../../errors/describe.ts'
import { toHex } from '../../util/hex.ts'

/** A parsed bundle: its decoded transactions, the state block, the block environment asked for, and the time limit (ms). */
interface Bundle {
  txs: LegacyTransaction[]
  stateHeight: number
  block: BlockOverrides
  timeout: number | undefined
}

const FIELDS = new Set(['txs', 'blockNumber', 'stateBlockNumber', 'timestamp', 'coinbase', 'gasLimit', 'difficulty', 'baseFee', 'timeout', 'transactionIndex'])

function parseBundle(value: unknown, index: number, ctx: RpcContext): Bundle {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(index, 'the bundle: an object with txs, blockNumber and stateBlockNumber')
  const o = value as Record<string, unknown>
  for (const key of Object.keys(o)) if (!FIELDS.has(key)) throw invalidArgument(index, `unknown field ${describeValue(key)} in the bundle`)
  const given = (key: string) => o[key] !== undefined && o[key] !== null
  if (!Array.isArray(o.txs) || o.txs.length === 0) throw invalidArgument(index, 'bundle missing txs')
  const blockNumber = given('blockNumber') ? parseQuantity(o.blockNumber, index) : 0n
  if (blockNumber === 0n) throw invalidArgument(index, 'bundle missing blockNumber')
  if (given('transactionIndex')) throw invalidArgument(index, 'transactionIndex is not supported: the bundle runs on the state after stateBlockNumber')
  if (given('difficulty') && ctx.chain.executor.hasPrevRandao) throw invalidArgument(index, 'difficulty has no effect after the merge (the hardfork reads PREVRANDAO)')
  if (given('baseFee') && !ctx.chain.executor.hasBaseFee) throw invalidArgument(index, 'baseFee needs EIP-1559 (option hardfork london or later)')
  const txs = o.txs.map((raw: unknown) => {
    try {
      return decodeLegacyTransaction(parseData(raw, index), BigInt(ctx.chainId))
    } catch (err) {
      throw invalidArgument(index, `a bundle transaction: ${(err as Error).message}`)
    }
  })
  const stateHeight = stateBlock('stateBlockNumber').parse(o.stateBlockNumber ?? 'latest', index, ctx)
  const block: BlockOverrides = {
    number: blockNumber,
    time: given('timestamp') ? parseQuantity(o.timestamp, index) : undefined,
    feeRecipient: given('coinbase') ? parseAddress(o.coinbase, index) : undefined,
    gasLimit: given('gasLimit') ? parseQuantity(o.gasLimit, index) : undefined,
    difficulty: given('difficulty') ? parseQuantity(o.difficulty, index) : undefined,
    baseFeePerGas: given('baseFee') ? parseQuantity(o.baseFee, index) : undefined,
  }
  const timeout = given('timeout') ? Number(parseQuantity(o.timeout, index)) : undefined
  return { txs, stateHeight, block, timeout }
}

/**
 * eth_callBundle(bundle): Flashbots' bundle simulation (mev-geth internal/ethapi
 * api.go CallBundle; alloy rpc-types-mev `EthCallBundle`, as Anvil serves it): the
 * signed transactions `txs` run in order on the state after `stateBlockNumber`, in the
 * block `blockNumber` would be (its number; `timestamp`, `coinbase`, `gasLimit`,
 * `baseFee` and, before the merge, `difficulty` as given), nothing committed. Per
 * transaction: gas used, gas price and `gasFees` (gas used × price, wei), the
 * coinbase's balance change and what was sent to it, and the return data (`value`) or
 * the `error` with the `revert` data. Amounts are decimal strings, as Flashbots gives
 * them; `bundleHash` is keccak256 of the transaction hashes in order.
 *
 * The chain pays fees to the governance address 0x…07 (reference §0, §2.8),
 * not to the block's coinbase, so `coinbaseDiff` counts direct payments to the coinbase
 * only, `ethSentToCoinbase` equals it, and `bundleGasPrice` is (gas fees + sent to the
 * coinbase) / total gas, what the bundle pays per gas as on Ethereum. A transaction
 * a block would not take (nonce, intrinsic gas, the 6,000,000 cap, funds) refuses the
 * whole call with -32000 naming it. `transactionIndex` is refused. Below a fork's
 * block the devnet holds no state to run on, and the call is refused. Under the
 * trace limits (`timeout`, ms, within them).
 */
export const eth_callBundle = defineMethod({
  name: 'eth_callBundle',
  params: [param<RpcCallBundle, Bundle>('bundle', parseBundle)],
  fork: { kind: 'local' },
  handler: async (ctx, [bundle], { scope }) => {
    const forkHeight = ctx.chain.fork?.history?.height
    if (forkHeight !== undefined && bundle.stateHeight < forkHeight) {
      throw new RpcError(RpcErrorCode.ServerError, `stateBlockNumber ${bundle.stateHeight} is below the fork block ${forkHeight}: the fork holds no state there`)
    }
    const [{ withTraceBudget }, { runBundle }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/bundle.ts')])
    const timeout = Math.min(bundle.timeout ?? ctx.limits.traceTimeout, ctx.limits.traceTimeout)
    const { runs } = await withTraceBudget(ctx.limits, scope, timeout, (budget) => runBundle(ctx.chain, bundle.txs, bundle.stateHeight, bundle.block, budget))
    let gasFees = 0n
    let coinbaseDiff = 0n
    let totalGasUsed = 0n
    const results = runs.map(({ tx, outcome, coinbaseBefore, coinbaseAfter }): RpcCallBundleResult => {
      const fees = outcome.gasUsed * tx.gasPrice
      const diff = coinbaseAfter - coinbaseBefore
      gasFees += fees
      coinbaseDiff += diff
      totalGasUsed += outcome.gasUsed
      const common = {
        coinbaseDiff: diff.toString(),
        ethSentToCoinbase: diff.toString(),
        fromAddress: toHex(tx.from),
        gasFees: fees.toString(),
        gasPrice: tx.gasPrice.toString(),
        gasUsed: Number(outcome.gasUsed),
        toAddress: tx.to === undefined ? null : toHex(tx.to),
        txHash: toHex(tx.hash),
      }
      return outcome.error === undefined ? { ...common, value: toHex(outcome.returnValue) } : { ...common, error: outcome.error.message, revert: toHex(outcome.returnValue) }
    })
    const hashes = new Uint8Array(32 * runs.length)
    for (const [i, { tx }] of runs.entries()) hashes.set(tx.hash, 32 * i)
    return {
      bundleGasPrice: (totalGasUsed === 0n ? 0n : (gasFees + coinbaseDiff) / totalGasUsed).toString(),
      bundleHash: toHex(keccak256(hashes)),
      coinbaseDiff: coinbaseDiff.toString(),
      ethSentToCoinbase: coinbaseDiff.toString(),
      gasFees: gasFees.toString(),
      results,
      stateBlockNumber: bundle.stateHeight,
      totalGasUsed: Number(totalGasUsed),
    }
  },
})
