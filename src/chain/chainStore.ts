/**
 * What the chain asks of where it is kept: the persistence layer (persistence/store.ts,
 * `LedgerStore`) implements it, so the chain names no database and persistence
 * depends on the chain's types, never the other way round.
 */
import type { BlockIndex } from './blockIndex.ts'
import type { BlockSettings } from './blockSettings.ts'
import type { Clock } from './clock.ts'
import type { Mempool } from './mempool.ts'
import type { WorldState } from '../state/worldState.ts'
import type { ForkSource } from '../fork/source.ts'

/** What the store persists from: the chain's parts, bound once the chain exists. */
export interface StoreSource {
  world: WorldState
  /** The fork under the world: its fetched values and history answers are persisted too. */
  fork: ForkSource | undefined
  blocks: BlockIndex
  clock: Clock
  mempool: Mempool
  settings: BlockSettings
}

/** A restore, as the store needs it: the height restored to and the built heights dropped (`from > to`: none). */
export interface StoreRevert {
  height: number
  from: number
  to: number
}

/** The chain's store: every change goes through it, in order; without a database each call is a no-op. */
export interface ChainStore {
  /** Whether the database outlives the process, so that answers wait for its writes ({@link ChainStore.flushed}). */
  readonly durable: boolean
  /** Binds the chain's parts, once, when the chain is built. */
  bind(source: StoreSource): void
  /** Queues one atomic batch with everything changed since the last; `revert` for a restore. */
  persist(revert?: StoreRevert): void
  /** Queues the pool's changes alone. */
  persistPool(): void
  /** A promise of the batches queued so far being written, or `undefined` when none is pending. Rejects with the first failed write. */
  flushed(): Promise<void> | undefined
  /** Waits for the queued writes and closes the database. */
  close(): Promise<void>
}
