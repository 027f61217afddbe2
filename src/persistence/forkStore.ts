/**
 * A forked chain's values in its database (key layout: persistence/schema.ts, version 3):
 * one key per value fetched from the remote and per kept history answer, each put in the
 * batch after its fetch, so that a fetch costs the bytes of what it brought, however many
 * came before it. Version 2 rewrote every value fetched so far after each fetch (issue 35:
 * 20,000 storage slots read wrote 24.3 GB); its three blobs are read here and replaced
 * by per-value keys in the first batch written.
 */
import type { LevelDatabase } from './database.ts'
import { CorruptDatabaseError } from './errors.ts'
import type { FetchedValue, ForkSource, ForkValues } from '../fork/source.ts'
import type { HistoryValues } from '../fork/history.ts'
import type { RestHistoryValues } from '../fork/restHistory.ts'
import {
  FORK_HISTORY_KEY,
  FORK_HISTORY_PREFIX,
  FORK_REST_HISTORY_KEY,
  FORK_REST_PREFIX,
  FORK_VALUE_KINDS,
  FORK_VALUES_KEY,
  forkAnswerKey,
  forkValueKey,
  prefixRange,
  type StoredConfig,
} from './schema.ts'

/** One write of a batch (persistence/store.ts). */
export type BatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string }

/** What a database holds of a fork's values, in the forms the fork's `restore` methods take. */
export interface StoredForkValues {
  values: ForkValues
  history: HistoryValues
  restHistory: RestHistoryValues
}

/** Disk keys of the history answers read, so that those the bounded cache does not take back are deleted. */
interface ReadKeys {
  history: string[]
  rest: string[]
}

/**
 * Reads the fork values `db` holds for a chain of `config`: the per-value keys and a
 * version-2 database's blobs. Throws {@link CorruptDatabaseError} naming an entry that
 * does not parse.
 */
export async function readForkValues(db: LevelDatabase, config: StoredConfig): Promise<StoredForkValues & { legacy: boolean; keys: ReadKeys }> {
  const parse = (key: string, text: string): unknown => {
    try {
      return JSON.parse(text)
    } catch (err) {
      throw new CorruptDatabaseError(`the database entry ${key} is corrupt: ${(err as Error).message}`, { cause: err })
    }
  }
  const [valuesBlob, historyBlob, restBlob] = await db.getMany([FORK_VALUES_KEY, FORK_HISTORY_KEY, FORK_REST_HISTORY_KEY])
  const legacy = valuesBlob !== undefined || historyBlob !== undefined || restBlob !== undefined
  const values = (valuesBlob === undefined ? { accounts: {}, code: {}, storage: {} } : parse(FORK_VALUES_KEY, valuesBlob)) as ForkValues
  // With REST every native kind is present, as the fork's restore expects of values fetched with REST.
  if (config.fork?.restUrl != null) for (const kind of ['allowances', 'nativeStorage', 'contracts', 'unboundOffsets'] as const) values[kind] ??= {}
  for (const [kind, prefix] of FORK_VALUE_KINDS) {
    for await (const [key, text] of db.iterator(prefixRange(prefix))) {
      const table = (values[kind] ??= {}) as Record<string, unknown>
      table[key.slice(prefix.length)] = parse(key, text)
    }
  }
  const history = (historyBlob === undefined ? [] : parse(FORK_HISTORY_KEY, historyBlob)) as HistoryValues
  const restHistory = (restBlob === undefined ? [] : parse(FORK_REST_HISTORY_KEY, restBlob)) as RestHistoryValues
  const keys: ReadKeys = { history: [], rest: [] }
  for (const [prefix, list, read] of [
    [FORK_HISTORY_PREFIX, history, keys.history],
    [FORK_REST_PREFIX, restHistory, keys.rest],
  ] as const) {
    if (!Array.isArray(list)) continue
    for await (const [key, text] of db.iterator(prefixRange(prefix))) {
      ;(list as unknown[]).push(parse(key, text))
      read.push(key)
    }
  }
  return { values, history, restHistory, legacy, keys }
}

/**
 * Collects what a fork fetches (values by kind and key, history answers put or dropped
 * by their bounded caches) and turns it into the puts and deletes of the next batch,
 * encoding each from the fork as it is then: a value once, a history answer put if the
 * cache still holds it and deleted if it dropped it.
 */
export class ForkWriter {
  #fork: ForkSource | undefined
  #values: FetchedValue[] = []
  readonly #history = new Set<string>()
  readonly #rest = new Set<string>()
  /** Code hashes put already (accounts that share code put it once). */
  readonly #code = new Set<string>()
  /** Keys to delete with the next batch: a version-2 database's blobs, answers not taken back on resume. */
  #deletes: string[] = []
  #legacy = false
  #read: ReadKeys = { history: [], rest: [] }

  /** What {@link readForkValues} found: the blobs to replace and the history keys read. Before {@link attach}. */
  noteRead(legacy: boolean, keys: ReadKeys): void {
    this.#legacy = legacy
    this.#read = keys
  }

  /**
   * Follows `fork` (the chain's, or `undefined`) from now on, forgetting the last one's
   * pending changes. `whole`: the database holds none of its values yet (a new chain);
   * they are all written with the next batch, as they are when values came before the
   * store was bound or the database holds version 2's blobs. `fetched` is called after
   * each fetch (a durable database writes at once).
   */
  attach(fork: ForkSource | undefined, whole: boolean, fetched: () => void): void {
    this.#fork = fork
    this.#values = []
    this.#history.clear()
    this.#rest.clear()
    this.#code.clear()
    this.#deletes = []
    const legacy = this.#legacy
    const read = this.#read
    this.#legacy = false
    this.#read = { history: [], rest: [] }
    if (fork === undefined) return
    if (legacy) this.#deletes.push(FORK_VALUES_KEY, FORK_HISTORY_KEY, FORK_REST_HISTORY_KEY)
    if (whole || legacy || fork.fetchCount > 0) {
      for (const [kind, table] of Object.entries(fork.values()) as [FetchedValue['kind'], Record<string, unknown>][]) {
        for (const key of Object.keys(table)) this.#values.push({ kind, key })
      }
      for (const [key] of fork.history?.cache.entries() ?? []) this.#history.add(key)
      for (const [key] of fork.restHistory?.cache.entries() ?? []) this.#rest.add(key)
    }
    // Answers read back that the bounded cache did not take (a lower bound than the one they were written under).
    this.#dropUnkept(read.history, FORK_HISTORY_PREFIX, fork.history?.cache.entries())
    this.#dropUnkept(read.rest, FORK_REST_PREFIX, fork.restHistory?.cache.entries())
    fork.onFetch((value) => {
      if (this.#fork !== fork) return
      if (value !== undefined) this.#values.push(value)
      fetched()
    })
    fork.history?.cache.watch((key) => {
      if (this.#fork === fork) this.#history.add(key)
    })
    fork.restHistory?.cache.watch((key) => {
      if (this.#fork === fork) this.#rest.add(key)
    })
  }

  /** Whether anything waits to be written. */
  get pending(): boolean {
    return this.#values.length > 0 || this.#history.size > 0 || this.#rest.size > 0 || this.#deletes.length > 0
  }

  /** The puts and deletes of everything fetched or dropped since the last call, now forgotten. */
  ops(): BatchOp[] {
    const fork = this.#fork
    const ops: BatchOp[] = this.#deletes.map((key) => ({ type: 'del', key }))
    this.#deletes = []
    if (fork === undefined) return ops
    for (const { kind, key } of this.#values) {
      const value = fork.valueOf(kind, key)
      if (value === undefined) continue
      if (kind === 'code') {
        if (this.#code.has(key)) continue
        this.#code.add(key)
      }
      ops.push({ type: 'put', key: forkValueKey(kind, key), value: JSON.stringify(value) })
      // An account's code came with it.
      const codeHash = kind === 'accounts' ? (value as string[])[2]! : ''
      if (codeHash !== '' && !this.#code.has(codeHash)) {
        this.#code.add(codeHash)
        const code = fork.valueOf('code', codeHash)
        if (code !== undefined) ops.push({ type: 'put', key: forkValueKey('code', codeHash), value: JSON.stringify(code) })
      }
    }
    this.#values = []
    for (const key of this.#history) {
      const entry = fork.history?.entry(key)
      const dbKey = forkAnswerKey(FORK_HISTORY_PREFIX, key)
      ops.push(entry === undefined ? { type: 'del', key: dbKey } : { type: 'put', key: dbKey, value: JSON.stringify(entry) })
    }
    this.#history.clear()
    for (const path of this.#rest) {
      const entry = fork.restHistory?.entry(path)
      const dbKey = forkAnswerKey(FORK_REST_PREFIX, path)
      ops.push(entry === undefined ? { type: 'del', key: dbKey } : { type: 'put', key: dbKey, value: JSON.stringify(entry) })
    }
    this.#rest.clear()
    return ops
  }

  #dropUnkept(read: string[], prefix: typeof FORK_HISTORY_PREFIX | typeof FORK_REST_PREFIX, kept: Iterable<[string, unknown]> | undefined): void {
    if (read.length === 0) return
    const held = new Set<string>()
    for (const [key] of kept ?? []) held.add(forkAnswerKey(prefix, key))
    for (const key of read) if (!held.has(key)) this.#deletes.push(key)
  }
}
