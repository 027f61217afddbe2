/**
 * A map that keeps every value a key has held, tagged with the block height that
 * wrote it, so that state can be read as of any block (block tags of JSON-RPC and
 * REST heights) and writes can be undone through the {@link Journal}.
 *
 * Versions are immutable: a write pushes a new head version (a second write at the
 * same height replaces the head, keeping the older ones), so undoing any write is
 * putting the previous head back, recorded in the journal as (this map, key, previous
 * head) without a closure.
 */
import type { Journal, Undoable } from './journal.ts'

/** One version of a value; `value === undefined` records a deletion. */
interface Version<V> {
  readonly height: number
  readonly value: V | undefined
  readonly older: Version<V> | undefined
}

/** Versions per key, newest first. */
export class VersionedMap<V> implements Undoable {
  readonly #versions = new Map<string, Version<V>>()
  readonly #journal: Journal
  /** Called with each key written or restored, so the store can persist it. */
  readonly #onTouch: ((key: string) => void) | undefined

  constructor(journal: Journal, onTouch?: (key: string) => void) {
    this.#journal = journal
    this.#onTouch = onTouch
  }

  /** Value of `key` as of `height` (the newest version written at or below it), or `undefined`. */
  get(key: string, height: number): V | undefined {
    let v = this.#versions.get(key)
    while (v !== undefined && v.height > height) v = v.older
    return v?.value
  }

  /** Whether `key` has a version (a value or a deletion) written at or below `height`. */
  has(key: string, height: number): boolean {
    let v = this.#versions.get(key)
    while (v !== undefined && v.height > height) v = v.older
    return v !== undefined
  }

  /** Newest value of `key`, including versions written for a block still being built. */
  getNewest(key: string): V | undefined {
    return this.#versions.get(key)?.value
  }

  /**
   * Writes `value` (or a deletion with `undefined`) as of `height`. A second write at
   * the same height replaces the first; either way the journal can undo it.
   */
  set(key: string, value: V | undefined, height: number): void {
    const newest = this.#versions.get(key)
    if (newest !== undefined && newest.height > height) {
      throw new RangeError(`write at height ${height} below the newest version (${newest.height}) of ${key}`)
    }
    const older = newest !== undefined && newest.height === height ? newest.older : newest
    this.#versions.set(key, { height, value, older })
    this.#journal.recordUndo(this, key, newest)
    this.#onTouch?.(key)
  }

  /** Journal callback: puts back the head `key` had before a write. */
  undo(key: string, previous: unknown): void {
    if (previous === undefined) this.#versions.delete(key)
    else this.#versions.set(key, previous as Version<V>)
    this.#onTouch?.(key)
  }

  /**
   * Versions of `key` written at `floor` or above, newest first, deletions as
   * `value: undefined` (persistence writes exactly these; usually one step).
   */
  versionsFrom(key: string, floor: number): { height: number; value: V | undefined }[] {
    const out: { height: number; value: V | undefined }[] = []
    for (let v = this.#versions.get(key); v !== undefined && v.height >= floor; v = v.older) out.push({ height: v.height, value: v.value })
    return out
  }

  /** Keys that have ever held a value (deleted ones included). */
  keys(): IterableIterator<string> {
    return this.#versions.keys()
  }

  /** Number of keys ever written. */
  get size(): number {
    return this.#versions.size
  }
}
