/**
 * The undo log behind an EVM state manager's `checkpoint` / `commit` / `revert`
 * (@ethereumjs/common `StateManagerInterface`): each write records how to undo
 * itself; a checkpoint is a position in the log, and reverting runs the undos above
 * it, newest first. Cost per write: one closure push; a commit is O(1).
 */
export class UndoLog {
  readonly #undo: Array<() => void> = []
  readonly #checkpoints: number[] = []

  /** Records how to undo the write just made. */
  push(undo: () => void): void {
    this.#undo.push(undo)
  }

  /** Opens a checkpoint (a call frame begins). */
  checkpoint(): void {
    this.#checkpoints.push(this.#undo.length)
  }

  /** Keeps the writes since the latest checkpoint (they belong to the enclosing one now). */
  commit(): void {
    this.#checkpoints.pop()
  }

  /** Undoes the writes since the latest checkpoint (all of them when none is open), newest first. */
  revert(): void {
    const position = this.#checkpoints.pop() ?? 0
    for (let i = this.#undo.length - 1; i >= position; i--) this.#undo[i]!()
    this.#undo.length = position
  }

  /** Forgets every write and checkpoint: nothing can be reverted past here. */
  clear(): void {
    this.#undo.length = 0
    this.#checkpoints.length = 0
  }
}
