/**
 * The chain's public types (architecture: chain/): what a Chain is built from, what it
 * answers about an included transaction, the block environment simulations run in,
 * and what watchers are told. Re-exported by chain.ts, the chain's public face.
 */
import type { EvmExecutor } from '../evm/executor.ts'
import type { WorldState } from '../state/worldState.ts'
import type { ForkSource } from '../fork/source.ts'
import type { ChainBlock } from './block.ts'
import type { BlockSettingsState } from './blockSettings.ts'
import type { Bookkeeper } from './bookkeeper.ts'
import type { Clock } from './clock.ts'
import type { ConsoleSink } from './consoleOutput.ts'
import type { EmptyRun } from './emptyRuns.ts'
import type { ExecutionRecord } from './record.ts'
import type { ChainStore } from './chainStore.ts'
import type { ChainTransaction, PoolTransaction } from './transaction.ts'
import type { UnboundGasRule } from '../native/unboundGas.ts'

/** Where an included transaction sits. */
export interface IncludedTransaction {
  tx: ChainTransaction
  block: ChainBlock
  index: number
  record: ExecutionRecord
}

/**
 * Which block environment calls, estimates and traced calls at a block run in (the
 * `blockContext` option):
 * - `'node'`: the real node's (reference §6.2): a call at block N reads N's state with
 *   NUMBER N and TIMESTAMP N's timestamp + 1; an estimate on N's state runs in the
 *   block a transaction sent then would land in, block N + 1.
 * - `'ethereum'`: go-ethereum's, Hardhat's and Anvil's: a call or an estimate at block
 *   N runs in N's own environment (its number and timestamp).
 *
 * In both, `'pending'` (and an estimate given no block) is the next block: the
 * latest state after the EVM transactions waiting for it, NUMBER height + 1,
 * TIMESTAMP what the clock will stamp it with.
 */
export type BlockContext = 'node' | 'ethereum'

/** The block a simulation targets: a height, or `'pending'` (the block a transaction sent now would land in). */
export type SimulationBlock = number | 'pending'

/** What {@link Chain} is built from; see createDevnet for how options become these. */
export interface ChainParts {
  world: WorldState
  /** The fork the world's values come from under the local ones (fork/source.ts), when the chain forks a remote node. */
  fork: ForkSource | undefined
  executor: EvmExecutor
  store: ChainStore
  bookkeeper: Bookkeeper
  genesis: ChainBlock
  clock: Clock
  automine: boolean
  /** Pool minimum gas price in gwei (solo: 0, reference §0). */
  minGasPrice: bigint
  /** Environment of calls and estimates at a block; default `'node'` (see {@link BlockContext}). */
  blockContext?: BlockContext
  /** Unbound-gas accrual; absent: none, as on a solo node (§4.2). */
  unboundGas?: UnboundGasRule
  /** Where console.log lines go (mined transactions, eth_call, failed eth_estimateGas); absent: silent. */
  console?: ConsoleSink
  /** A chain resumed from its database: the built blocks above genesis, the pending empty runs above them, the pool's transactions in the order they entered it, and the block settings of blocks to come. */
  history?: { blocks: readonly ChainBlock[]; empty: readonly EmptyRun[]; pool?: readonly PoolTransaction[]; settings?: BlockSettingsState | undefined }
}

/**
 * Something told about the chain's progress (push subscriptions). Called inside the
 * chain's queue, synchronously, so it sees the chain exactly as it was just
 * committed; it must not throw and must not wait on the chain.
 */
export interface ChainWatcher {
  /**
   * Blocks `from`..`to` (heights, inclusive) were committed. Bulk-mined empty blocks
   * are reported unbuilt: `blockAt(h)` builds one. After a restore the range starts
   * above the restored head (dropped blocks are not reported again).
   */
  blocks?(from: number, to: number): void
  /** A transaction (raw hash) entered the pool, before any block that includes it. */
  accepted?(hash: Uint8Array): void
}
