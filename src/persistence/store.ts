/**
 * Persistence of the ledger into an abstract-level database given by the user (option
 * `db`): written through after every change of the chain, read back once when a
 * devnet opens a database that holds a chain (resume.ts). Memory holds every hot read.
 * Key layout and value encoding: persistence/schema.ts.
 *
 * Each change is one atomic batch holding everything it changed: the blocks built
 * since the last batch (a whole block is never split), the state versions written,
 * code, the tip (height, pending empty blocks, clock, block settings), and the pool's entries and exits
 * (a transaction leaves the pool in the batch of the block that mines it). A database
 * killed at any moment therefore opens at the end of some batch: whole blocks only, and
 * the pool as it was after that batch.
 *
 * Durability: with a database that outlives the process (abstract-level's
 * `supports.permanence`, e.g. classic-level) the store is {@link LedgerStore.durable}
 * and the surfaces hold every answer until the batches queued before it are written
 * ({@link LedgerStore.flushed}), so an answered transaction hash or receipt is on disk,
 * in a block or in the pool.
 * With memory-level the batches are written behind, off the hot path. Without a
 * database (the default) every call is a no-op: nothing is serialised.
 */
import type { LevelDatabase } from './database.ts'
import type { ChainStore, StoreRevert, StoreSource } from '../chain/chainStore.ts'
import type { Mempool } from '../chain/mempool.ts'
import { encodeBlockSettings } from './environment.ts'
import type { PoolTransaction } from '../chain/transaction.ts'
import type { StateKind, WorldState } from '../state/worldState.ts'
import { CorruptDatabaseError, PersistenceError, UnsupportedVersionError } from './errors.ts'
import { type BatchOp, ForkWriter, readForkValues, type StoredForkValues } from './forkStore.ts'
import {
  blockKey,
  codeKey,
  CONFIG_KEY,
  encodeBlock,
  encodeStateValue,
  parseStateKey,
  parsePoolKey,
  poolKey,
  READABLE_SCHEMA_VERSIONS,
  SCHEMA_KEY,
  SCHEMA_VERSION,
  STATE_KINDS,
  stateKey,
  stateRange,
  storedTransaction,
  TIP_KEY,
  type StoredConfig,
  type StoredTip,
} from './schema.ts'
import { toHexRaw } from '../util/hex.ts'

/** The `db` option's database: what the store calls of it (persistence/database.ts). */
export type { LevelDatabase }

/**
 * The key under which a database given to the store carries a {@link StandIn}: then it
 * is a stand-in for the real database (persistence/files.ts, `--db`), which the store
 * reads the chain from and which is swapped for the real one once the chain is accepted.
 */
export const STAND_IN = Symbol('dualnet.standIn')

/** How a stand-in database hands over to the real one, or goes away. */
export interface StandIn {
  /** Closes and removes the stand-in and opens the real database, untouched until now. Throws {@link PersistenceError} when it cannot be opened. */
  accept(): Promise<LevelDatabase>
  /** Closes and removes the stand-in, leaving the real database untouched. */
  discard(): Promise<void>
  /** The refusal of a database LevelDB could not read (`detail`: its message), naming the database and the way out. */
  unreadable(detail: string): PersistenceError
}

/** Everything a database holds, undecoded (resume.ts decodes it). */
export interface StoredLedger {
  config: StoredConfig
  tip: StoredTip
  /** Encoded built blocks, heights 0 up, in order. */
  blocks: string[]
  /** State versions in key then height order: [kind, entry key, height, encoded value]. */
  state: [StateKind, string, number, string][]
  /** Code by hash, hex. */
  code: [string, string][]
  /** The pool's transactions in the order they entered it: raw hash (hex) and the encoded {@link StoredTransaction}. */
  pool: [string, string][]
}

const TOUCHED: Record<StateKind, keyof WorldState['touches']> = { account: 'accounts', storage: 'storage', allowance: 'allowances', unbound: 'unbound' }

/** Persists the ledger into `db`, or nowhere when there is none. */
export class LedgerStore implements ChainStore {
  #db: LevelDatabase | undefined
  /** Set while #db is a stand-in: reads only, until {@link accept}. */
  #standIn: StandIn | undefined
  /** Whether the database outlives the process, so that answers wait for its writes. */
  readonly durable: boolean
  #source: StoreSource | undefined
  /** Chain height at the last batch: every state write since is at this height or above. */
  #floor = 0
  /** Height of the highest built block written (-1: none yet). */
  #written = -1
  /** Schema and config of a new chain, written with its first batch. */
  #preamble: BatchOp[] = []
  /** A new chain replaces the one in the database (a reset): its first batch deletes the old one's entries. */
  #wipe = false
  /** A version-1 or -2 database read: its first batch marks it version 3 (and moves a fork's blobs to keys of their own: forkStore.ts). */
  #upgrade = false
  /** The pool as the database holds it (or will once the queued batches are written): raw hash -> key. */
  readonly #pool = new Map<string, string>()
  /** What the fork fetched since the last batch, to write with the next (forkStore.ts). */
  readonly #forkWriter = new ForkWriter()
  /** Whether a batch of the fork's values alone is queued and not yet built (see {@link persistFetched}). */
  #forkWriteQueued = false
  /** Sequence number of the next pool entry. */
  #poolSequence = 0
  #writes: Promise<void> = Promise.resolve()
  #pending = 0
  /** The first failed write; every later answer and {@link close} report it. */
  #failure: unknown

  /** `db`: where to write; `undefined` makes every call a no-op. */
  constructor(db?: LevelDatabase) {
    this.#db = db
    this.#standIn = (db as { [STAND_IN]?: StandIn } | undefined)?.[STAND_IN]
    this.durable = db?.supports.permanence === true
  }

  /**
   * The chain read (or the database found empty) is accepted: from now on the store
   * may write. With a stand-in, the real database is opened in its place; before this,
   * nothing has touched it. Throws as {@link StandIn.accept}.
   */
  async accept(): Promise<void> {
    const standIn = this.#standIn
    if (standIn === undefined) return
    this.#standIn = undefined
    this.#db = undefined
    this.#db = await standIn.accept()
  }

  /** Whether there is a database at all. */
  get enabled(): boolean {
    return this.#db !== undefined
  }

  /** Opens the database if there is one and it is not open yet. Throws {@link CorruptDatabaseError} when it cannot be opened. */
  async open(): Promise<void> {
    if (this.#db === undefined || this.#db.status === 'open') return
    try {
      await this.#db.open()
    } catch (err) {
      const detail = (err as { cause?: Error }).cause?.message ?? (err as Error).message
      throw new CorruptDatabaseError(`the database could not be opened: ${detail}`, { cause: err })
    }
  }

  /**
   * Reads the chain the database holds, or `undefined` when it is empty. Throws
   * {@link UnsupportedVersionError} for another schema version, and
   * {@link CorruptDatabaseError} for a database that is not empty but holds no
   * dualnet chain, or whose records do not parse or cannot be read.
   */
  async read(): Promise<StoredLedger | undefined> {
    try {
      return await this.#read()
    } catch (err) {
      if (err instanceof PersistenceError) throw err
      // LevelDB's own errors (a damaged table): abstract-level wraps them, the cause says what.
      const detail = (err as { cause?: Error }).cause?.message ?? (err as Error).message
      throw this.#standIn?.unreadable(detail) ?? new CorruptDatabaseError(`the database could not be read: ${detail}`, { cause: err })
    }
  }

  async #read(): Promise<StoredLedger | undefined> {
    const db = this.#db
    if (db === undefined) return undefined
    const schema = await db.get(SCHEMA_KEY)
    if (schema === undefined) {
      const [any] = await db.keys({ limit: 1 }).all()
      if (any !== undefined)
        throw new CorruptDatabaseError(`the database is not empty but holds no dualnet chain (no ${SCHEMA_KEY} entry; first key ${JSON.stringify(any)}); give the devnet a new or empty database`)
      return undefined
    }
    if (!READABLE_SCHEMA_VERSIONS.includes(schema)) {
      throw new UnsupportedVersionError(
        `the database has schema version ${schema}; this dualnet reads versions ${READABLE_SCHEMA_VERSIONS.slice(0, -1).join(', ')} and ${READABLE_SCHEMA_VERSIONS.at(-1)} only`,
      )
    }
    const parse = <T>(key: string, text: string | undefined): T => {
      try {
        if (text === undefined) throw new Error('missing')
        return JSON.parse(text) as T
      } catch (err) {
        throw new CorruptDatabaseError(`the database entry ${key} is corrupt: ${(err as Error).message}`, { cause: err })
      }
    }
    const [config, tip] = await db.getMany([CONFIG_KEY, TIP_KEY])
    const blocks = await db.values({ gte: 'b:', lt: 'b;' }).all()
    const state: StoredLedger['state'] = []
    for (const [kind, prefix] of STATE_KINDS) {
      for await (const [key, value] of db.iterator({ gte: prefix, lt: `${prefix.slice(0, -1)};` })) {
        const parsed = parseStateKey(key.slice(prefix.length))
        if (parsed === undefined) throw new CorruptDatabaseError(`the database key ${JSON.stringify(key)} is malformed`)
        state.push([kind, parsed.key, parsed.height, value as string])
      }
    }
    const code = (await db.iterator({ gte: 'c:', lt: 'c;' }).all()).map(([k, v]) => [k.slice(2), v as string] as [string, string])
    const pool: [string, string][] = []
    for (const [key, value] of await db.iterator({ gte: 'p:', lt: 'p;' }).all()) {
      const parsed = parsePoolKey(key)
      if (parsed === undefined) throw new CorruptDatabaseError(`the database key ${JSON.stringify(key)} is malformed`)
      pool.push([parsed.hash, value as string])
      this.#pool.set(parsed.hash, key)
      this.#poolSequence = parsed.sequence + 1
    }
    this.#upgrade = schema !== String(SCHEMA_VERSION)
    return { config: parse<StoredConfig>(CONFIG_KEY, config), tip: parse<StoredTip>(TIP_KEY, tip), blocks: blocks as string[], state, code, pool }
  }

  /**
   * Marks the chain as new: its schema version and `config` go with the first batch.
   * When the store served a chain already (a reset), that batch also deletes
   * everything the database held, atomically: it holds the old chain or the new one.
   */
  create(config: StoredConfig): void {
    if (this.#db === undefined) return
    this.#wipe = this.#source !== undefined
    this.#upgrade = false
    // The wipe deletes the old chain's pool entries with everything else.
    this.#pool.clear()
    this.#preamble = [
      { type: 'put', key: SCHEMA_KEY, value: String(SCHEMA_VERSION) },
      { type: 'put', key: CONFIG_KEY, value: JSON.stringify(config) },
    ]
  }

  /**
   * Binds the chain's parts; the blocks built so far count as written (a resumed chain's
   * are), and so does the pool (a resumed chain's pool is the one read). With a database,
   * the pool records its changes from now on.
   */
  bind(source: StoreSource): void {
    this.#source = source
    this.#floor = source.blocks.height
    this.#written = this.#preamble.length > 0 ? -1 : source.blocks.builtCount - 1
    if (this.#db === undefined) return
    source.mempool.recordChanges()
    // A new chain's fork values (those its start fetched: the dev accounts, the fork block's header) go with its first batch; a resumed one's are held.
    this.#forkWriter.attach(source.fork, this.#preamble.length > 0, () => this.persistFetched())
  }

  /**
   * Queues one batch with everything changed since the last: the built blocks not
   * written yet, the versions of every state entry touched (all versions at or above
   * the last batch's height), new code, and the tip. `revert` (a restore) also drops
   * the built blocks above the restored height and every stored version of a touched
   * entry at or above it that the restore undid. The pool's changes since the last
   * batch go with it: entries added, exits deleted (a transaction that came and went
   * in between, as under automine, costs nothing). The batch is built now, from the
   * ledger as it is, and written behind in order; without a database this only
   * forgets the touched entries.
   */
  /**
   * The config of the chain the database holds and, for a forked chain, the values it
   * fetched from its remote and the history answers it kept (persistence/forkStore.ts),
   * read before the chain is: a fork is resumed from them without contacting the remote.
   * `undefined` for an empty database or none; values `undefined` for a chain without a
   * fork. Throws {@link CorruptDatabaseError} for an entry that does not parse.
   */
  async storedFork(): Promise<({ config: StoredConfig } & Partial<StoredForkValues>) | undefined> {
    const db = this.#db
    if (db === undefined) return undefined
    const text = await db.get(CONFIG_KEY)
    if (text === undefined) return undefined
    let config: StoredConfig
    try {
      config = JSON.parse(text) as StoredConfig
    } catch (err) {
      throw new CorruptDatabaseError(`the database entry ${CONFIG_KEY} is corrupt: ${(err as Error).message}`, { cause: err })
    }
    if (config.fork === undefined) return { config }
    const { legacy, keys, ...held } = await readForkValues(db, config)
    this.#forkWriter.noteRead(legacy, keys)
    return { config, ...held }
  }

  /** The schema version's put when the database was written by an older dualnet (its first batch marks it). */
  #upgradeOps(): BatchOp[] {
    if (!this.#upgrade) return []
    this.#upgrade = false
    return [{ type: 'put', key: SCHEMA_KEY, value: String(SCHEMA_VERSION) }]
  }

  /**
   * With a durable database, writes the fork's values after a fetch, in a batch of their
   * own (whole, or not at all), so that a value only read (an eth_call, a balance) is
   * on disk before the answer that read it goes out (the answers wait for
   * {@link flushed}), and a crash does not lose it. Fetches that come while the batch
   * waits in the queue go with it: the batch is built when its turn comes. Otherwise
   * nothing: the values go with the next block and at {@link close}.
   */
  persistFetched(): void {
    const db = this.#db
    if (!this.durable || db === undefined || this.#standIn !== undefined || this.#forkWriteQueued) return
    this.#forkWriteQueued = true
    const source = this.#source
    this.#enqueue(async () => {
      this.#forkWriteQueued = false
      // After a reset the new chain's first batch (which replaces the database's content) writes its values.
      if (source === undefined || source !== this.#source) return
      if (!this.#forkWriter.pending) return
      await db.batch([...this.#upgradeOps(), ...this.#forkWriter.ops()] as never)
    })
  }

  persist(revert?: StoreRevert): void {
    const db = this.#db
    const source = this.#source
    if (this.#standIn !== undefined) throw new Error('the store writes only after accept()')
    if (db === undefined || source === undefined) {
      source?.world.clearTouches()
      return
    }
    const { world, blocks } = source
    const ops = this.#preamble
    this.#preamble = []
    ops.push(...this.#upgradeOps())
    if (revert !== undefined) {
      for (let h = revert.from; h <= revert.to; h++) ops.push({ type: 'del', key: blockKey(h) })
      this.#written = Math.min(this.#written, blocks.builtCount - 1)
    }
    for (const block of blocks.builtFrom(this.#written + 1)) ops.push({ type: 'put', key: blockKey(block.header.height), value: encodeBlock(block) })
    this.#written = blocks.builtCount - 1
    const floor = revert === undefined ? this.#floor : revert.height
    const undone: { gte: string; lt: string }[] = []
    for (const [kind] of STATE_KINDS) {
      for (const key of world.touches[TOUCHED[kind]]) {
        if (revert !== undefined) undone.push(stateRange(kind, key, floor))
        for (const v of world.versionsFrom(kind, key, floor)) {
          ops.push({ type: 'put', key: stateKey(kind, key, v.height), value: encodeStateValue(kind, v.value) })
        }
      }
    }
    for (const hash of world.touches.code) ops.push({ type: 'put', key: codeKey(hash), value: toHexRaw(world.getCodeByHash(hash)) })
    world.clearTouches()
    ops.push(...this.#forkWriter.ops())
    if (source.mempool.changed) this.#poolOps(source.mempool, ops)
    ops.push(this.#tipOp())
    this.#floor = blocks.height
    const wipe = this.#wipe
    this.#wipe = false
    this.#enqueue(async () => {
      // What a reset replaces and a restore's stale versions are found in the database
      // itself (the ledger no longer holds them), and deleted in the same atomic batch.
      const stale: BatchOp[] = []
      if (wipe) for await (const key of db.keys()) stale.push({ type: 'del', key })
      for (const range of undone) for await (const key of db.keys(range)) stale.push({ type: 'del', key })
      await db.batch((stale.length === 0 ? ops : [...stale, ...ops]) as never)
    })
  }

  /**
   * With a durable database, persists the pool's changes since the last batch, if any
   * (a transaction accepted and not mined at once, or dropped): one batch, as
   * {@link persist}, so that its hash is answered once it is on disk. Otherwise they
   * go with the next batch or {@link close}: nothing to pay per pooled transaction.
   */
  persistPool(): void {
    if (this.durable && this.#source?.mempool.changed === true) this.persist()
  }

  /** Adds to `ops` the pool's changes: a put per transaction that entered and is still there, a delete per stored one that left. */
  #poolOps(mempool: Mempool, ops: BatchOp[]): void {
    // By hash, in the order they entered; Map order keeps a re-entry last.
    const added = new Map<string, PoolTransaction>()
    for (const { hash, tx } of mempool.takeChanges()) {
      if (tx !== undefined) added.set(hash, tx)
      else if (!added.delete(hash)) {
        const key = this.#pool.get(hash)
        if (key === undefined) continue
        this.#pool.delete(hash)
        ops.push({ type: 'del', key })
      }
    }
    for (const [hash, tx] of added) {
      const stale = this.#pool.get(hash)
      if (stale !== undefined) ops.push({ type: 'del', key: stale })
      const key = poolKey(this.#poolSequence++, hash)
      this.#pool.set(hash, key)
      ops.push({ type: 'put', key, value: JSON.stringify(storedTransaction(tx)) })
    }
  }

  /**
   * With a durable database and writes in flight: a promise of their completion, which
   * rejects with {@link PersistenceError} if a write failed. Otherwise `undefined`, so
   * that callers pay nothing.
   */
  flushed(): Promise<void> | undefined {
    if (!this.durable || (this.#pending === 0 && this.#failure === undefined)) return undefined
    return this.#writes.then(() => {
      if (this.#failure !== undefined) throw new PersistenceError(`the database write failed: ${(this.#failure as Error).message}`, { cause: this.#failure })
    })
  }

  /**
   * Writes the tip (the clock may have moved since the last batch) and the pool's
   * changes not written yet, waits for queued writes, then closes the database.
   * Throws the first write that failed.
   */
  async close(): Promise<void> {
    if (this.#standIn !== undefined) return this.abandon()
    const db = this.#db
    if (db === undefined) return
    if (this.#source !== undefined && this.#failure === undefined && db.status === 'open') {
      if (this.#source.mempool.changed) this.persist()
      else {
        // A database only opened stays as it was, unless the fork's values are written (its blobs moved with the version).
        const ops = [this.#tipOp(), ...(this.#forkWriter.pending ? [...this.#upgradeOps(), ...this.#forkWriter.ops()] : [])]
        this.#enqueue(() => db.batch(ops as never))
      }
    }
    await this.#writes
    if (db.status === 'open') await db.close()
    if (this.#failure !== undefined) throw this.#failure
  }

  /** Closes the database without writing anything (a devnet that refused it). */
  async abandon(): Promise<void> {
    if (this.#standIn !== undefined) await this.#standIn.discard()
    else if (this.#db !== undefined && this.#db.status === 'open') await this.#db.close()
  }

  #tipOp(): BatchOp {
    const { blocks, clock, settings } = this.#source!
    const tip: StoredTip = { height: blocks.height, built: blocks.builtCount - 1, empty: blocks.empty.runs(), clock: clock.capture(), settings: encodeBlockSettings(settings.capture()) }
    return { type: 'put', key: TIP_KEY, value: JSON.stringify(tip) }
  }

  #enqueue(write: () => Promise<void>): void {
    this.#pending++
    this.#writes = this.#writes
      .then(() => (this.#failure === undefined ? write() : undefined))
      .catch((err: unknown) => {
        this.#failure ??= err
      })
      .finally(() => {
        this.#pending--
      })
  }
}
