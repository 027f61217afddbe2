/**
 * SIGINT and SIGTERM for the CLI, installed before anything else loads (issue: a
 * SIGTERM while a large --db was resumed ended the process uncleanly, exit 143). Until
 * the devnet serves, a signal ends the process at once with exit code 0: start-up has
 * only read the database or written whole atomic batches, so nothing is lost (the crash
 * test's guarantee). Once serving, the registered stop runs (dump the state, close the
 * devnet, which aborts running traces and calls), once, whichever signal comes first.
 */
export interface StopSignals {
  /** Registers what a signal runs once the devnet serves; it ends the process itself. */
  onStop(stop: () => void): void
}

/** Installs the handlers; returns the registry the CLI's main part fills in. */
export function installStopSignals(): StopSignals {
  let stop: (() => void) | undefined
  let stopping = false
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping`)
    if (stop === undefined) process.exit(0)
    stop()
  }
  process.on('SIGINT', handle)
  process.on('SIGTERM', handle)
  return { onStop: (run) => void (stop = run) }
}
