/**
 * Runs of empty blocks mined but not yet built. `mine(100_000)` records a run in O(1)
 * (as Hardhat's hardhat_mine reserves blocks); a block of a run is built, hashed and
 * persisted when something first needs it: its hash, its header, or a block on top.
 * An empty block changes no state, so state reads at those heights need nothing built.
 */

/** `count` empty blocks from height `start`, stamped `first`, then `interval` seconds apart. */
export interface EmptyRun {
  start: number
  count: number
  first: number
  interval: number
}

/** Pending empty runs at the top of the chain, lowest first. */
export class EmptyRuns {
  #runs: EmptyRun[] = []
  #count = 0

  /** Blocks not built yet. */
  get count(): number {
    return this.#count
  }

  /** The pending runs, lowest first (copies; for the store's tip record). */
  runs(): EmptyRun[] {
    return this.#runs.map((run) => ({ ...run }))
  }

  /** Appends a run (its start must follow the previous run or the built chain). */
  add(run: EmptyRun): void {
    if (run.count <= 0) return
    this.#runs.push(run)
    this.#count += run.count
  }

  /** Timestamp of the last pending block, or `undefined` with none pending. */
  lastTimestamp(): number | undefined {
    const last = this.#runs[this.#runs.length - 1]
    return last === undefined ? undefined : last.first + (last.count - 1) * last.interval
  }

  /** Timestamp of pending height `height`, or `undefined` when it is not pending. */
  timestampAt(height: number): number | undefined {
    // Runs are contiguous and ordered by start; a loop of evm_mine leaves thousands of them.
    const runs = this.#runs
    let lo = 0
    let hi = runs.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const run = runs[mid]!
      if (height < run.start) hi = mid - 1
      else if (height >= run.start + run.count) lo = mid + 1
      else return run.first + (height - run.start) * run.interval
    }
    return undefined
  }

  /** Takes the lowest pending block: its timestamp. */
  shift(): number | undefined {
    const run = this.#runs[0]
    if (run === undefined) return undefined
    const timestamp = run.first
    run.start++
    run.first += run.interval
    run.count--
    this.#count--
    if (run.count === 0) this.#runs.shift()
    return timestamp
  }

  /** Forgets pending blocks above `height` (a revert). */
  truncateAbove(height: number): void {
    const kept: EmptyRun[] = []
    let count = 0
    for (const run of this.#runs) {
      const keep = Math.min(run.count, height - run.start + 1)
      if (keep > 0) {
        kept.push({ ...run, count: keep })
        count += keep
      }
    }
    this.#runs = kept
    this.#count = count
  }
}
