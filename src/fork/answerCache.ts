/**
 * The bounded cache of a fork's history answers (history.ts, restHistory.ts): least
 * recently used first out, by bytes (docs/limits.md "A fork's history answers"). An
 * answer dropped is fetched from the remote again when next asked: blocks at or below
 * the fork block do not change, so a second fetch gives the same answer.
 *
 * Why bounded: any client can make the fork fetch history answers (a lookup of an
 * unknown transaction hash, eth_getLogs below the fork block: 5.4 MB each in the probe
 * of issue 35), and a fork kept every one for its life, in memory and in its database.
 *
 * An answer fetched for a read that has not read it yet is pinned: the read runs again
 * once its fetch is done (fork/miss.ts, retry-on-miss) and must find it, or a read
 * needing more than the bound would fetch for ever. It is unpinned by that read
 * ({@link AnswerCache.read}), or by {@link AnswerCache.unpin} when the read fails.
 */
import { LIMIT_DEFAULTS } from '../core/limits.ts'

interface Entry<V> {
  value: V
  /** Bytes it counts for: its key and its answer as JSON text. */
  size: number
  pinned: boolean
}

/** Answers by key, at most {@link limit} bytes of them (pinned ones aside). */
export class AnswerCache<V> {
  /** Most bytes kept; a lower value drops the least recently used answers at the next insert. */
  limit: number
  /** Kept answers, least recently used first (a Map keeps insertion order; a use re-inserts). */
  readonly #entries = new Map<string, Entry<V>>()
  #bytes = 0
  /** Told of each key put or dropped (the database and the disk cache write the change). */
  readonly #watchers: ((key: string) => void)[] = []

  constructor(limit: number = LIMIT_DEFAULTS.forkHistoryLimit) {
    this.limit = limit
  }

  /** Bytes kept now. */
  get bytes(): number {
    return this.#bytes
  }

  /** Answers kept now. */
  get size(): number {
    return this.#entries.size
  }

  has(key: string): boolean {
    return this.#entries.has(key)
  }

  /** The answer at `key` without counting it as a use, or `undefined`. */
  peek(key: string): V | undefined {
    return this.#entries.get(key)?.value
  }

  /**
   * The answers at `keys` when every one is kept: each counts as used and is unpinned
   * (its read has found it). `undefined` when any is missing (none is touched then).
   */
  read(keys: readonly string[]): V[] | undefined {
    const found: Entry<V>[] = []
    for (const key of keys) {
      const entry = this.#entries.get(key)
      if (entry === undefined) return undefined
      found.push(entry)
    }
    for (const [i, key] of keys.entries()) {
      const entry = found[i]!
      entry.pinned = false
      this.#entries.delete(key)
      this.#entries.set(key, entry)
    }
    return found.map((e) => e.value)
  }

  /**
   * Keeps `value` at `key` as the most recently used, counting `size` bytes, then drops
   * unpinned answers, least recently used first, until the bound holds. `pinned`: a read
   * waits for it (see the module's comment).
   */
  set(key: string, value: V, size: number, pinned = false): void {
    const held = this.#entries.get(key)
    if (held !== undefined) {
      this.#bytes -= held.size
      this.#entries.delete(key)
    }
    this.#entries.set(key, { value, size, pinned })
    this.#bytes += size
    this.#tell(key)
    this.#evict()
  }

  /** Unpins `keys` (their read failed) and drops what the bound asks for. */
  unpin(keys: readonly string[]): void {
    for (const key of keys) {
      const entry = this.#entries.get(key)
      if (entry !== undefined) entry.pinned = false
    }
    this.#evict()
  }

  /** Every kept key and answer, least recently used first. */
  *entries(): IterableIterator<[string, V]> {
    for (const [key, entry] of this.#entries) yield [key, entry.value]
  }

  /** Calls `watcher` with the key of each answer put or dropped from now on. */
  watch(watcher: (key: string) => void): void {
    this.#watchers.push(watcher)
  }

  #evict(): void {
    if (this.#bytes <= this.limit) return
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.limit) break
      if (entry.pinned) continue
      this.#entries.delete(key)
      this.#bytes -= entry.size
      this.#tell(key)
    }
  }

  #tell(key: string): void {
    for (const watcher of this.#watchers) watcher(key)
  }
}
