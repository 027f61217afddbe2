/**
 * The undo log behind snapshots. Every write to the world state records how to undo
 * itself here; a snapshot is a position in this log (O(1) to take) and reverting
 * replays the undo steps back to that position (O(changes since), whatever the size
 * of the state).
 *
 * Memory: a step is three slots of one flat array (what to call, a key, a payload),
 * not a closure with its captured context, so a snapshot held over a long test costs
 * 24 bytes per write instead of about 130.
 */

/** One undo step: restores what a single write replaced. */
export type UndoStep = () => void

/** Something that undoes its own writes from a key and the payload it recorded. */
export interface Undoable {
  undo(key: string, payload: unknown): void
}

/** Slots per step in the flat log. */
const STRIDE = 3

/** Append-only undo log with absolute positions. */
export class Journal {
  /** Steps, {@link STRIDE} slots each: an {@link Undoable} (or an {@link UndoStep}), its key, its payload. */
  readonly #log: unknown[] = []
  /** Absolute position of the first step in `#log`; grows when the log is trimmed. */
  #base = 0
  /** Writes recorded ever (never goes back): a cache of values derived from the state (state/merkleState.ts) knows by it whether anything changed. */
  #writes = 0
  /** Reverts ever ({@link revertTo} calls that undid something): a derived cache drops what a revert may have changed. */
  #reverts = 0

  /** Current absolute position: what a snapshot stores. */
  get position(): number {
    return this.#base + this.#log.length / STRIDE
  }

  /** Writes recorded since the journal was made (monotonic; see #writes). */
  get writes(): number {
    return this.#writes
  }

  /** Reverts that undid something since the journal was made (monotonic). */
  get reverts(): number {
    return this.#reverts
  }

  /** Records the undo step of a write that just happened. */
  record(step: UndoStep): void {
    this.#writes++
    this.#log.push(step, undefined, undefined)
  }

  /** Records that `target.undo(key, payload)` undoes a write that just happened (no closure). */
  recordUndo(target: Undoable, key: string, payload: unknown): void {
    this.#writes++
    this.#log.push(target, key, payload)
  }

  /**
   * Undoes every write after `position`, newest first.
   * Throws `RangeError` when `position` lies before the trimmed part or in the future.
   */
  revertTo(position: number): void {
    if (position < this.#base || position > this.position) {
      throw new RangeError(`journal position ${position} is not available`)
    }
    const log = this.#log
    const keep = (position - this.#base) * STRIDE
    if (keep < log.length) this.#reverts++
    for (let i = log.length - STRIDE; i >= keep; i -= STRIDE) {
      const target = log[i] as Undoable | UndoStep
      if (typeof target === 'function') target()
      else target.undo(log[i + 1] as string, log[i + 2])
    }
    log.length = keep
  }

  /**
   * Forgets undo steps before `position` (no snapshot can reach them any more), so a
   * long-running devnet without snapshots keeps no undo history.
   */
  trimBefore(position: number): void {
    const drop = Math.min(position, this.position) - this.#base
    if (drop <= 0) return
    if (drop * STRIDE === this.#log.length) this.#log.length = 0
    else this.#log.splice(0, drop * STRIDE)
    this.#base += drop
  }
}
