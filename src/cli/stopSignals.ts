/**
 * SIGINT and SIGTERM for the CLI, installed before anything else loads (issue: a
 * SIGTERM while a large --db was resumed ended the process uncleanly, exit 143). Until
 * the devnet serves, a signal ends the process at once with exit code 0: start-up has
 * only read the database or written whole atomic batches, so nothing is lost (the crash
 * test's guarantee), and a fork remote that never answers is not waited for. Once
 * serving, the registered stop runs (dump the state, close the devnet, which aborts
 * running traces and calls; main.ts bounds the wait for the close), and the process
 * exits with 0, or 1 when the stop failed.
 *
 * A second signal while the stop runs ends the process at once, by that signal's
 * default action (a shell reports 128 + its number: 130 for SIGINT, 143 for SIGTERM):
 * what the stop had not written (a --dump-state file) is not written. Before, it was ignored, and a
 * stop that waited on a hung fork remote could only be ended with SIGKILL (issue 35).
 */
export interface StopSignals {
  /** Registers what a signal runs once the devnet serves; its settling ends the process (0, or 1 after printing its error). */
  onStop(stop: () => Promise<void>): void
  /** Whether a signal came: a failure of the start after it is the stop's doing, not an error to report. */
  readonly stopping: boolean
}

/** Installs the handlers; returns the registry the CLI's main part fills in. */
export function installStopSignals(): StopSignals {
  let stop: (() => Promise<void>) | undefined
  let stopping = false
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`dualnet: ${signal} again: exiting at once, without a clean stop`)
      // Ended by the signal itself, its default action back: process.exit would wait for
      // libuv's threads, and one may be waiting on a file or the disk.
      process.removeAllListeners(signal)
      process.kill(process.pid, signal)
      return
    }
    stopping = true
    console.log(`\n${signal}: stopping (send it again to exit at once)`)
    if (stop === undefined) process.exit(0)
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        // A DualnetError's details say more (the changes of a gas snapshot check, one a line).
        const details = (err as { details?: unknown }).details
        console.error(`dualnet: ${(err as Error).message}${typeof details === 'string' && details !== '' ? `\n${details}` : ''}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', handle)
  process.on('SIGTERM', handle)
  return {
    onStop: (run) => void (stop = run),
    get stopping() {
      return stopping
    },
  }
}
