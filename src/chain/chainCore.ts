/**
 * The parts of a chain that its jobs share (simulation.ts, intake.ts, stateWrites.ts):
 * built once by the Chain's constructor and internal to chain/. The Chain is the
 * public face; each job is a module of free functions over this core.
 */
import { UnknownBlockError } from '../core/errors.ts'
import type { EvmExecutor } from '../evm/executor.ts'
import type { WorldState } from '../state/worldState.ts'
import type { BlockIndex } from './blockIndex.ts'
import type { BlockSettings } from './blockSettings.ts'
import type { BlockContext } from './chainTypes.ts'
import type { Checkpoints } from './checkpoints.ts'
import type { Clock } from './clock.ts'
import type { ConsoleSink } from './consoleOutput.ts'
import type { Mempool } from './mempool.ts'
import type { Miner } from './mining.ts'
import type { NativeEnv } from './nativeExecution.ts'
import type { ChainQueue } from './queue.ts'
import type { ChainStore } from './chainStore.ts'
import type { ForkSource } from '../fork/source.ts'
import type { UnboundGasRule } from '../native/unboundGas.ts'
import type { ChainWatchers } from './watchers.ts'

/** One chain's shared parts; `automine` is the only field that changes. */
export interface ChainCore {
  readonly world: WorldState
  /** The fork under the world, when the chain forks a remote node. */
  readonly fork: ForkSource | undefined
  readonly executor: EvmExecutor
  readonly mempool: Mempool
  /** COINBASE, GASLIMIT, BASEFEE and PREVRANDAO of blocks to come. */
  readonly settings: BlockSettings
  readonly clock: Clock
  readonly store: ChainStore
  readonly blocks: BlockIndex
  readonly checkpoints: Checkpoints
  readonly miner: Miner
  readonly queue: ChainQueue
  readonly watchers: ChainWatchers
  /** Pool minimum gas price in gwei (anvil_setMinGasPrice changes it). */
  minGasPrice: bigint
  readonly blockContext: BlockContext
  readonly unboundGas: UnboundGasRule | undefined
  readonly console: ConsoleSink | undefined
  /** Whether each accepted transaction is mined at once in its own block. */
  automine: boolean
}

/** `height` if the chain has a block there; throws {@link UnknownBlockError} otherwise (as the node's "header not found"). */
export function stateHeight(core: ChainCore, height: number): number {
  const latest = core.blocks.height
  if (!Number.isInteger(height) || height < 0 || height > latest) {
    throw new UnknownBlockError(`header for height ${height} not found (latest is ${latest})`)
  }
  return height
}

/** The environment native transactions run in at `timestamp`. */
export function nativeEnv(core: ChainCore, timestamp: number): NativeEnv {
  return { timestamp, unbound: core.unboundGas }
}
