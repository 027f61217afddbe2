#!/usr/bin/env node
/**
 * `dualnet`: the devnet as a program, with the node's flags (spec: "--rest",
 * "--restport <port>"; reference §0 for the default ports) and Anvil's for everything
 * else a createDevnet option sets (cli/flags.ts). Prints the dev accounts (EVM and
 * native) and both URLs, logs one line per request and per mined block (unless
 * `--quiet`), stops cleanly on SIGINT/SIGTERM, writing `--dump-state` first. A bad
 * flag or a port in use is one line on stderr and exit code 1. Colour only on a
 * terminal, never with NO_COLOR set (no-color.org).
 */
import { createDevnet, type Devnet } from './index.ts'
import { fileExists, openLevelDirectory, readStateFile, writeStateFile } from './chain/persistence/files.ts'
import { cliProgram, devnetOptionsOf, listenOptionsOf, parseFlags } from './cli/flags.ts'
import { blockReporter, isLoopback, paint, printBanner } from './cli/output.ts'

const flags = parseFlags(cliProgram(), process.argv.slice(2))
const statePaths = {
  load: flags.loadState ?? (flags.state !== undefined && fileExists(flags.state) ? flags.state : undefined),
  dump: flags.dumpState ?? flags.state,
}

let devnet: Devnet | undefined
try {
  devnet = await createDevnet({
    ...(await devnetOptionsOf(flags)),
    ...(flags.db === undefined ? {} : { db: await openLevelDirectory(flags.db) }),
    ...(statePaths.load === undefined ? {} : { state: await readStateFile(statePaths.load) }),
  })
  const stamped = (line: string) => console.log(`${paint('dim', new Date().toISOString())} ${line}`)
  const reportBlocks = flags.quiet ? undefined : blockReporter(devnet, stamped)
  const urls = await devnet.listen({
    ...listenOptionsOf(flags),
    // Blocks a request mined are printed before the request's own line.
    log: reportBlocks === undefined ? undefined : (line) => (reportBlocks(), stamped(line)),
  })
  printBanner(devnet, urls, flags)
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

let stopping = false
const stop = (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`\n${signal}: stopping`)
  const dumped = statePaths.dump === undefined ? Promise.resolve() : devnet!.dumpState().then((doc) => writeStateFile(statePaths.dump!, doc))
  void dumped.then(() => devnet!.close()).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`dualnet: ${(err as Error).message}`)
      process.exit(1)
    },
  )
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
