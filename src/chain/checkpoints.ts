/**
 * Checkpoints of the chain (snapshots): O(1) for state and blocks to take (a journal
 * position and a height), O(changes since) to restore. A live checkpoint pins its
 * journal position, so that the undo steps it needs are kept until it is released.
 */
import type { BlockIndex } from './blockIndex.ts'
import type { BlockSettings, BlockSettingsState } from './blockSettings.ts'
import type { Clock, ClockState } from './clock.ts'
import type { Mempool } from './mempool.ts'
import type { EvmTransaction, NativeChainTransaction } from './transaction.ts'
import type { WorldState } from '../state/worldState.ts'
import type { ChainStore } from './chainStore.ts'

/** What `Chain.capture` returns: opaque to callers, restorable any number of times. */
export interface ChainCheckpoint {
  readonly height: number
  readonly journal: number
  readonly pool: readonly EvmTransaction[]
  readonly nativePool: readonly NativeChainTransaction[]
  readonly clock: ClockState
  /** Coinbase, block gas limit and the next block's base fee and PREVRANDAO. */
  readonly settings: BlockSettingsState
  readonly automine: boolean
  readonly accepted: number
}

/** What checkpoints capture and restore: the chain's parts, shared with it. */
export interface CheckpointParts {
  world: WorldState
  mempool: Mempool
  clock: Clock
  blocks: BlockIndex
  store: ChainStore
  settings: BlockSettings
}

/** Takes and restores checkpoints, and keeps the journal no longer than live ones need. */
export class Checkpoints {
  readonly #world: WorldState
  readonly #mempool: Mempool
  readonly #clock: Clock
  readonly #blocks: BlockIndex
  readonly #store: ChainStore
  readonly #settings: BlockSettings
  /** Journal positions that live snapshots hold; undo steps after the oldest must stay. */
  readonly #pins = new Map<number, number>()

  constructor(parts: CheckpointParts) {
    this.#world = parts.world
    this.#mempool = parts.mempool
    this.#clock = parts.clock
    this.#blocks = parts.blocks
    this.#store = parts.store
    this.#settings = parts.settings
  }

  /** A pinned checkpoint of the parts, with the chain's own mining mode and count of accepted transactions. */
  capture(automine: boolean, accepted: number): ChainCheckpoint {
    const checkpoint: ChainCheckpoint = {
      height: this.#blocks.height,
      journal: this.#world.journal.position,
      pool: this.#mempool.all(),
      nativePool: this.#mempool.allNative(),
      clock: this.#clock.capture(),
      settings: this.#settings.capture(),
      automine,
      accepted,
    }
    this.#pins.set(checkpoint.journal, (this.#pins.get(checkpoint.journal) ?? 0) + 1)
    return checkpoint
  }

  /**
   * Returns the parts to `checkpoint`: state, blocks, pool, clock and block settings, and persists the
   * change. The chain restores its mining mode and accepted count itself.
   */
  restore(checkpoint: ChainCheckpoint): void {
    this.#world.journal.revertTo(checkpoint.journal)
    const top = this.#blocks.builtCount - 1
    this.#blocks.truncateAbove(checkpoint.height)
    this.#mempool.replaceAll(checkpoint.pool, checkpoint.nativePool)
    this.#clock.restore(checkpoint.clock)
    this.#settings.restore(checkpoint.settings)
    const builtTop = this.#blocks.builtCount - 1
    this.#store.persist({ height: checkpoint.height, from: builtTop + 1, to: top })
  }

  /** Unpins a checkpoint that will not be restored again. */
  release(checkpoint: ChainCheckpoint): void {
    const count = this.#pins.get(checkpoint.journal) ?? 0
    if (count <= 1) this.#pins.delete(checkpoint.journal)
    else this.#pins.set(checkpoint.journal, count - 1)
  }

  /** Drops undo steps no live checkpoint can reach. */
  trimJournal(): void {
    let oldest = this.#world.journal.position
    for (const position of this.#pins.keys()) if (position < oldest) oldest = position
    this.#world.journal.trimBefore(oldest)
  }
}
