/**
 * What the chain tells about its progress (push subscriptions, pending-transaction
 * filters): the transactions accepted, in order, and the blocks committed since the
 * last report. Runs inside the chain's queue.
 */
import type { ChainWatcher } from './chainTypes.ts'

/** The accepted transactions' hashes and the watchers told about them and about new blocks. */
export class ChainWatchers {
  /** Raw hashes of accepted transactions in acceptance order (pending-transaction filters read it). */
  readonly #accepted: Uint8Array[] = []
  /** Push watchers; with none, mining pays one length check per job. */
  readonly #watchers: ChainWatcher[] = []
  /** Highest height the watchers were told about (or that passed while none watched). */
  #announced: number

  constructor(height: number) {
    this.#announced = height
  }

  /** How many transactions were accepted so far (a checkpoint records it). */
  get acceptedCount(): number {
    return this.#accepted.length
  }

  /** Raw hashes of the transactions accepted since the `from`-th one (0-based), and the new count. */
  acceptedSince(from: number): { hashes: Uint8Array[]; count: number } {
    return { hashes: this.#accepted.slice(from), count: this.#accepted.length }
  }

  /** Adds `watcher` (its first report covers the blocks after `height`); returns the function that removes it. */
  add(watcher: ChainWatcher, height: number): () => void {
    if (this.#watchers.length === 0) this.#announced = height
    this.#watchers.push(watcher)
    return () => {
      const at = this.#watchers.indexOf(watcher)
      if (at !== -1) this.#watchers.splice(at, 1)
    }
  }

  /** Records an accepted transaction and tells the watchers. */
  noteAccepted(hash: Uint8Array): void {
    this.#accepted.push(hash)
    if (this.#watchers.length === 0) return
    for (const watcher of [...this.#watchers]) watcher.accepted?.(hash)
  }

  /** Tells the watchers about the blocks committed since the last report, up to `height`. */
  announce(height: number): void {
    const from = this.#announced + 1
    this.#announced = height
    if (this.#watchers.length === 0 || height < from) return
    for (const watcher of [...this.#watchers]) watcher.blocks?.(from, height)
  }

  /** After a restore to a checkpoint taken at `accepted` transactions and the head `height`: watchers continue from it; the dropped blocks are not reported. */
  rewind(accepted: number, height: number): void {
    this.#accepted.length = Math.min(this.#accepted.length, accepted)
    this.#announced = Math.min(this.#announced, height)
  }
}
