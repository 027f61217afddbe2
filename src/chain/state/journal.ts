/**
 * The undo log behind snapshots. Every write to the world state records how to undo
 * itself here; a snapshot is a position in this log (O(1) to take) and reverting
 * replays the undo steps back to that position (O(changes since), whatever the size
 * of the state).
 */

/** One undo step: restores what a single write replaced. */
export type UndoStep = () => void

/** Append-only undo log with absolute positions. */
export class Journal {
  #steps: UndoStep[] = []
  /** Absolute position of `#steps[0]`; grows when the log is trimmed. */
  #base = 0

  /** Current absolute position: what a snapshot stores. */
  get position(): number {
    return this.#base + this.#steps.length
  }

  /** Records the undo step of a write that just happened. */
  record(step: UndoStep): void {
    this.#steps.push(step)
  }

  /**
   * Undoes every write after `position`, newest first.
   * Throws `RangeError` when `position` lies before the trimmed part or in the future.
   */
  revertTo(position: number): void {
    if (position < this.#base || position > this.position) {
      throw new RangeError(`journal position ${position} is not available`)
    }
    const keep = position - this.#base
    for (let i = this.#steps.length - 1; i >= keep; i--) this.#steps[i]!()
    this.#steps.length = keep
  }

  /**
   * Forgets undo steps before `position` (no snapshot can reach them any more), so a
   * long-running devnet without snapshots keeps no undo history.
   */
  trimBefore(position: number): void {
    const drop = Math.min(position, this.position) - this.#base
    if (drop <= 0) return
    this.#steps.splice(0, drop)
    this.#base += drop
  }
}
