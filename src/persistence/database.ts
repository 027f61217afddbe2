/**
 * What dualnet needs of the database of the `db` option, written as dualnet's own
 * interface: the abstract-level methods the ledger store calls, and nothing else.
 *
 * Why not abstract-level's own type: a public type that names `AbstractLevel` brings
 * abstract-level's and level-transcoder's declarations into every project that
 * type-checks dualnet, and those need Node's types (`Buffer`) and a recent standard
 * library (`Symbol.asyncDispose`): under TypeScript 7 with `skipLibCheck: false` and no
 * `@types/node` they do not compile. Any abstract-level database (memory-level,
 * classic-level, level, a sublevel) with string keys and values satisfies this
 * interface as it is, so no cast is needed.
 */

/** A range of keys, as abstract-level's iterators take it (all bounds optional). */
export interface LevelRange {
  /** Keys greater than or equal to this one. */
  gte?: string
  /** Keys greater than this one. */
  gt?: string
  /** Keys less than this one. */
  lt?: string
  /** Keys less than or equal to this one. */
  lte?: string
  /** At most this many entries; -1 or absent: no limit. */
  limit?: number
  /** Highest key first. */
  reverse?: boolean
}

/** Entries of a range: iterated with `for await`, or read at once with `all()`. */
export interface LevelIterator<T> extends AsyncIterable<T> {
  /** Every remaining entry, in key order. */
  all(): Promise<T[]>
}

/** One write of an atomic batch: a value put at a key, or a key deleted. */
export type LevelBatchOperation = { type: 'put'; key: string; value: string } | { type: 'del'; key: string }

/**
 * The database of the `db` option: any abstract-level database with string keys and
 * values (`new MemoryLevel()` from memory-level, `new ClassicLevel(dir)` from
 * classic-level, `new Level(dir)` from level), or an object of your own with these
 * members. dualnet opens it if it is not open, writes each change of the ledger as one
 * `batch`, reads it back with `get`, `getMany` and the range iterators when it holds a
 * chain, and closes it on `devnet.close()`.
 */
export interface LevelDatabase {
  /** `'open'` once usable; dualnet calls {@link open} otherwise. */
  readonly status: 'opening' | 'open' | 'closing' | 'closed'
  /**
   * What the database guarantees. With `permanence: true` (data outlives the process,
   * as with classic-level) every answer of the devnet waits until what it reports is
   * written; otherwise writes happen behind, off the answers' path.
   */
  readonly supports: { readonly permanence: boolean }
  /** Opens the database (creating it if missing). */
  open(): Promise<void>
  /** Closes the database. */
  close(): Promise<void>
  /** The value at `key`, or `undefined` when there is none. */
  get(key: string): Promise<string | undefined>
  /** The values at `keys`, in order; `undefined` where there is none. */
  getMany(keys: string[]): Promise<(string | undefined)[]>
  /** Writes `operations` atomically: all of them or none. */
  batch(operations: LevelBatchOperation[]): Promise<void>
  /** `[key, value]` entries of `range` (the whole database without one), in key order. */
  iterator(range?: LevelRange): LevelIterator<[string, string]>
  /** Keys of `range`, in order. */
  keys(range?: LevelRange): LevelIterator<string>
  /** Values of `range`, in key order. */
  values(range?: LevelRange): LevelIterator<string>
}
