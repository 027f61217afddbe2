/**
 * Block timestamps. Wall-clock following by default, as the solo node stamps
 * blocks (reference §8), with an offset that time controls move; timestamps
 * strictly increase, as Hardhat Network's do, so no block is older than its parent.
 */

/** Source of block timestamps, in Unix seconds. */
export class Clock {
  /** Seconds added to the wall clock. */
  #offset = 0
  /** One-shot timestamp for the next block. */
  #next: number | undefined

  /** Now, in Unix seconds, as the chain sees it. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.#offset
  }

  /** Moves the chain's time forward by `seconds` (a non-negative integer). */
  increaseTime(seconds: number): void {
    this.#offset += seconds
  }

  /** Fixes the timestamp of the next block. */
  setNextBlockTimestamp(timestamp: number): void {
    this.#next = timestamp
  }

  /** Timestamp for a block whose parent has `parentTimestamp`: the fixed one if set, else max(now, parent + 1). */
  timestampAfter(parentTimestamp: number): number {
    const next = this.#next
    if (next !== undefined) {
      this.#next = undefined
      // Once set, the chain's time follows from it, as in Hardhat.
      this.#offset += next - this.now()
      return next
    }
    return Math.max(this.now(), parentTimestamp + 1)
  }
}
