/**
 * A bundle of signed transactions run in order on the state after a block, as a
 * block builder would include them (Flashbots' eth_callBundle): each sees the one
 * before it, and nothing is committed. Reads the chain through {@link ReplayChain},
 * as the tracers' replays do.
 */
import { EVM_TX_GAS_CAP } from '../core/constants.ts'
import { TransactionRejectedError } from '../core/errors.ts'
import type { ExecutionOutcome } from '../evm/execution.ts'
import type { LegacyTransaction } from '../evm/legacyTransaction.ts'
import type { BlockOverrides } from '../evm/overrides.ts'
import { CHAIN_BLOCK_ENVIRONMENT } from '../evm/execution.ts'
import { toHex, toHexRaw } from '../util/hex.ts'
import { withBlockOverrides } from './overrides.ts'
import { budgetOf, ReplayWorld, type ReplayBudget, type ReplayChain } from './replay.ts'

/** One bundle transaction's run: its outcome, and the block's coinbase balance (wei) before and after it. */
export interface BundleRun {
  readonly tx: LegacyTransaction
  readonly outcome: ExecutionOutcome
  readonly coinbaseBefore: bigint
  readonly coinbaseAfter: bigint
}

/**
 * Runs `txs` in order on the state after block `stateHeight`, in the environment of
 * the block after it under `block` (number, timestamp, coinbase, gas limit, base fee,
 * difficulty), and returns each run with the coinbase's balance around it. Each must
 * be includable where it stands, as a block's validation takes it: its nonce the
 * sender's, its gas limit within the chain's 6,000,000 cap and at least its intrinsic
 * gas, the sender able to pay gas × price + value; otherwise throws
 * {@link TransactionRejectedError} naming the transaction, and nothing ran. The
 * budget's error past its deadline; ExecutionAbortedError when the devnet closes.
 */
export async function runBundle(
  chain: ReplayChain,
  txs: readonly LegacyTransaction[],
  stateHeight: number,
  block: BlockOverrides,
  limits?: ReplayBudget,
): Promise<{ runs: BundleRun[]; coinbase: Uint8Array }> {
  const world = new ReplayWorld(chain.world, stateHeight)
  const engine = await chain.executor.replayEngine(world)
  const ctx = withBlockOverrides(chain.simulationContext(stateHeight, 'call'), block)
  const coinbase = (ctx.env ?? CHAIN_BLOCK_ENVIRONMENT).coinbase
  const coinbaseKey = toHexRaw(coinbase)
  const budget = budgetOf(chain, limits)
  const runs: BundleRun[] = []
  for (const tx of txs) {
    const refuse = (reason: string) => new TransactionRejectedError(`err: ${reason}; txhash ${toHex(tx.hash)}`)
    const sender = world.getAccount(toHexRaw(tx.from))
    if (tx.nonce < sender.nonce) throw refuse(`nonce too low: address ${toHex(tx.from)}, tx: ${tx.nonce} state: ${sender.nonce}`)
    if (tx.nonce > sender.nonce) throw refuse(`nonce too high: address ${toHex(tx.from)}, tx: ${tx.nonce} state: ${sender.nonce}`)
    if (tx.gasLimit > EVM_TX_GAS_CAP) throw refuse(`gas limit ${tx.gasLimit} above the chain's cap of ${EVM_TX_GAS_CAP} per transaction`)
    const required = chain.executor.requiredGasAbove(tx.gasLimit, tx.to, tx.data)
    if (required !== undefined) throw refuse(`intrinsic gas too low: have ${tx.gasLimit}, want ${required}`)
    const want = tx.gasLimit * tx.gasPrice + tx.value
    if (sender.gas < want) throw refuse(`insufficient funds for gas * price + value: address ${toHex(tx.from)} have ${sender.gas} want ${want}`)
    const coinbaseBefore = world.getAccount(coinbaseKey).gas
    const outcome = await engine.executeTransaction(tx, ctx, budget)
    runs.push({ tx, outcome, coinbaseBefore, coinbaseAfter: world.getAccount(coinbaseKey).gas })
  }
  return { runs, coinbase }
}
