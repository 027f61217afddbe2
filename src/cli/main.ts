/**
 * The CLI's work after its entry (src/cli.ts) has enabled the compile cache and
 * installed the signal handlers: parse the flags, start the devnet and its servers,
 * print the banner, and register the clean stop (write `--dump-state`, close).
 */
import { createDevnet, type Devnet } from '../index.ts'
import { cliProgram, devnetOptionsOf, listenOptionsOf, parseFlags } from './flags.ts'
import { checkOptionsOfFlags } from './optionFlags.ts'
import { blockReporter, isLoopback, paint, printBanner, startFailure } from './output.ts'
import type { StopSignals } from './stopSignals.ts'
import { warmUp } from './warmUp.ts'

/**
 * The state-file and database helpers, imported only by a CLI given --state, --load-state,
 * --dump-state or --db: they load Node's zlib and the state document's code, which a
 * plain start does not need (docs/performance.md, "CLI start").
 */
const persistenceFiles = () => import('../persistence/files.ts')

/**
 * How long a signal's stop waits for `devnet.close()`, in milliseconds. The close waits
 * for queued work, and a transaction whose state is being fetched from a fork remote
 * that does not answer would hold it for as long as the remote client waits; past this,
 * the process exits without it (issue 35: SIGINT and SIGTERM stop the CLI within 2 s).
 * Nothing answered is lost: a --db's writes are atomic batches made before the answer
 * (the crash test's guarantee), and a fork's fetched values are fetched again.
 */
const CLOSE_WAIT_MS = 1_500
/**
 * The same wait with --coverage or --gas-report: the close writes the reports (reading
 * the artifacts, istanbul's reporters), which a large project takes seconds over; they
 * are what the run was for.
 */
const COVERAGE_CLOSE_WAIT_MS = 120_000

/** Whether `work` settles within `ms` (its failure is thrown). */
async function settlesWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
  try {
    return await Promise.race([work.then(() => true as const), late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Runs the CLI with `argv` (the arguments after node and the script). A bad flag
 * exits through commander (one line, exit code 1); a failed start (a port in use, a
 * refused database) prints one line on stderr and exits with code 1; a port in use
 * names the flag of the port taken and suggests 0 for any free port.
 */
export async function runCli(argv: readonly string[], signals: StopSignals): Promise<void> {
  const program = cliProgram()
  const flags = parseFlags(program, [...argv])
  // As createDevnet and listen will check them, before a database is opened or a state file read.
  const devnetOptions = await checkOptionsOfFlags(program, () => devnetOptionsOf(flags), listenOptionsOf(flags))
  const files = flags.state !== undefined || flags.loadState !== undefined || flags.dumpState !== undefined || flags.db !== undefined ? await persistenceFiles() : undefined
  const statePaths = {
    load: flags.loadState ?? (flags.state !== undefined && files!.fileExists(flags.state) ? flags.state : undefined),
    dump: flags.dumpState ?? flags.state,
  }

  let devnet: Devnet | undefined
  try {
    // Before anything is opened: a path the state cannot be written to would lose it at exit.
    if (statePaths.dump !== undefined) await files!.checkStateTarget(statePaths.dump, flags.dumpState !== undefined ? '--dump-state' : '--state')
    const limits = { stateLimit: flags.stateLimit, jsonDepthLimit: flags.jsonDepthLimit }
    const started = await createDevnet({
      ...devnetOptions,
      ...(flags.db === undefined ? {} : { db: await files!.openLevelDirectory(flags.db) }),
      ...(statePaths.load === undefined ? {} : { state: await files!.readStateFile(statePaths.load, limits, flags.loadState !== undefined ? '--load-state' : '--state') }),
    })
    devnet = started
    signals.onStop(async () => {
      // The state first, whole: it is read from memory and waits on nothing outside.
      if (statePaths.dump !== undefined) await files!.writeStateFile(statePaths.dump, await started.dumpState())
      const wait = flags.coverage === undefined && flags.gasReport === undefined ? CLOSE_WAIT_MS : COVERAGE_CLOSE_WAIT_MS
      if (!(await settlesWithin(started.close(), wait))) {
        console.error(
          `dualnet: the devnet did not close within ${wait / 1000} s (work waiting on the fork's remote, or a write): exited without waiting; what it had answered is kept, as after a crash`,
        )
      }
    })
    const stamped = (line: string) => console.log(`${paint('dim', new Date().toISOString())} ${line}`)
    const reportBlocks = flags.quiet ? undefined : blockReporter(started, stamped)
    const urls = await started.listen({
      ...listenOptionsOf(flags),
      // Blocks a request mined are printed before the request's own line.
      log:
        reportBlocks === undefined
          ? undefined
          : (line) => {
              reportBlocks()
              stamped(line)
            },
    })
    printBanner(started, urls, flags)
    if (flags.forkUrl === undefined) void warmUp(started)
    if (!isLoopback(flags.host)) {
      console.error(`dualnet: warning: listening on ${flags.host}, not loopback: anyone who reaches this machine can send transactions from the dev accounts, whose keys are public`)
    }
    // Interval-mined blocks come without a request; a check is an integer comparison.
    if (reportBlocks !== undefined) setInterval(reportBlocks, 250).unref()
  } catch (err) {
    // A signal closed the devnet while it started (listen then fails with "the devnet is closed"): the stop ends the process.
    if (signals.stopping) return
    console.error(`dualnet: ${startFailure(err, flags)}`)
    await devnet?.close().catch(() => {})
    process.exit(1)
  }
}
