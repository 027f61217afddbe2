/**
 * The CLI's work after its entry (src/cli.ts) has enabled the compile cache and
 * installed the signal handlers: parse the flags, start the devnet and its servers,
 * print the banner, and register the clean stop (write `--dump-state`, close).
 */
import { createDevnet, type Devnet } from '../index.ts'
import { cliProgram, devnetOptionsOf, listenOptionsOf, parseFlags } from './flags.ts'
import { checkOptionsOfFlags } from './optionFlags.ts'
import { blockReporter, isLoopback, paint, printBanner } from './output.ts'
import type { StopSignals } from './stopSignals.ts'

/**
 * The state-file and database helpers, imported only by a CLI given --state, --load-state,
 * --dump-state or --db: they load Node's zlib and the state document's code, which a
 * plain start does not need (docs/performance.md, "CLI start").
 */
const persistenceFiles = () => import('../persistence/files.ts')

/**
 * Runs the CLI with `argv` (the arguments after node and the script). A bad flag
 * exits through commander (one line, exit code 1); a failed start (a port in use, a
 * refused database) prints one line on stderr and exits with code 1.
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
    const started = await createDevnet({
      ...devnetOptions,
      ...(flags.db === undefined ? {} : { db: await files!.openLevelDirectory(flags.db) }),
      ...(statePaths.load === undefined ? {} : { state: await files!.readStateFile(statePaths.load) }),
    })
    devnet = started
    signals.onStop(() => {
      const dumped = statePaths.dump === undefined ? Promise.resolve() : started.dumpState().then((doc) => files!.writeStateFile(statePaths.dump!, doc))
      void dumped
        .then(() => started.close())
        .then(
          () => process.exit(0),
          (err: unknown) => {
            console.error(`dualnet: ${(err as Error).message}`)
            process.exit(1)
          },
        )
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
    if (!isLoopback(flags.host)) {
      console.error(`dualnet: warning: listening on ${flags.host}, not loopback: anyone who reaches this machine can send transactions from the dev accounts, whose keys are public`)
    }
    // Interval-mined blocks come without a request; a check is an integer comparison.
    if (reportBlocks !== undefined) setInterval(reportBlocks, 250).unref()
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { port?: number }
    const message = e.code === 'EADDRINUSE' ? `address ${flags.host} port in use: ${e.message.replace(/^.*EADDRINUSE: /, '')}` : e.message
    console.error(`dualnet: ${message}`)
    await devnet?.close().catch(() => {})
    process.exit(1)
  }
}
