/**
 * Block timestamps. By default the clock follows the wall clock, as the solo node
 * stamps blocks (reference §8), shifted by an offset that the time controls move.
 * Timestamps strictly increase, as Hardhat Network's do: no block is older than, or
 * as old as, its parent.
 *
 * A deterministic clock makes repeated runs give identical blocks and hashes:
 * `'frozen'` stands still at the genesis time (each block is its parent + 1 unless
 * time is moved), `{ step }` stamps each block `step` seconds after its parent.
 */

/** How the chain's time advances. */
export type ClockMode = 'wall' | 'frozen' | { step: number }

/** Everything the clock holds, for snapshots. */
export interface ClockState {
  readonly mode: ClockMode
  readonly offset: number
  readonly next: number | undefined
  readonly interval: number | undefined
}

/** Source of block timestamps, in Unix seconds. */
export class Clock {
  #mode: ClockMode
  /** Seconds added to the base (wall clock, or the frozen origin). */
  #offset = 0
  /** One-shot timestamp for the next block. */
  #next: number | undefined
  /** Seconds between the blocks of `mine(n, { interval })` style runs and `setBlockTimestampInterval`. */
  #interval: number | undefined
  readonly #origin: number

  /** `origin`: Unix seconds the frozen clock starts at (the genesis timestamp). */
  constructor(mode: ClockMode = 'wall', origin: number = Math.floor(Date.now() / 1000)) {
    if (typeof mode === 'object' && (!Number.isInteger(mode.step) || mode.step < 1)) {
      throw new RangeError(`clock step must be a positive whole number of seconds, got ${mode.step}`)
    }
    this.#mode = mode
    this.#origin = origin
  }

  /** Now, in Unix seconds, as the chain sees it (before any block-order adjustment). */
  now(): number {
    const base = this.#mode === 'wall' ? Math.floor(Date.now() / 1000) : this.#origin
    return base + this.#offset
  }

  /** Moves the chain's time forward by `seconds` (a non-negative integer). Returns the total offset. */
  increaseTime(seconds: number): number {
    this.#offset += seconds
    return this.#offset
  }

  /** Makes `now()` read `timestamp` (later blocks still never precede their parent). */
  setTime(timestamp: number): void {
    this.#offset += timestamp - this.now()
  }

  /** Fixes the timestamp of the next block (the caller checks it is after the latest block). */
  setNextBlockTimestamp(timestamp: number): void {
    this.#next = timestamp
  }

  /** Fixed spacing between consecutive blocks, or `undefined` to follow the clock. */
  setInterval(seconds: number | undefined): void {
    this.#interval = seconds
  }

  /** Fixed spacing between blocks if one applies (step mode or an interval), else `undefined`. */
  get spacing(): number | undefined {
    return typeof this.#mode === 'object' ? this.#mode.step : this.#interval
  }

  /**
   * Timestamp for a block whose parent has `parentTimestamp`: the fixed one if set
   * (then time continues from it, as in Hardhat), else the parent + step/interval in
   * step mode, else max(now, parent + 1).
   */
  timestampAfter(parentTimestamp: number): number {
    const stamped = this.peekAfter(parentTimestamp)
    if (this.#next !== undefined) {
      this.#next = undefined
      this.setTime(stamped)
    } else if (this.spacing !== undefined && stamped > this.now()) this.setTime(stamped)
    return stamped
  }

  /**
   * The timestamp {@link timestampAfter} would give a block on `parentTimestamp` now,
   * without using up a fixed next timestamp or moving the clock: the environment of
   * the block a transaction would land in (estimates, calls at `pending`).
   */
  peekAfter(parentTimestamp: number): number {
    if (this.#next !== undefined) return this.#next
    const step = this.spacing
    if (step !== undefined) return parentTimestamp + step
    return Math.max(this.now(), parentTimestamp + 1)
  }

  /** The clock's state, for a snapshot. */
  capture(): ClockState {
    return { mode: this.#mode, offset: this.#offset, next: this.#next, interval: this.#interval }
  }

  /** Restores a captured state. */
  restore(state: ClockState): void {
    this.#mode = state.mode
    this.#offset = state.offset
    this.#next = state.next
    this.#interval = state.interval
  }
}
