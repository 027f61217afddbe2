#!/usr/bin/env node
/**
 * `dualnet`: the devnet as a program, with the node's flags (spec: "--rest",
 * "--restport <port>"; reference §0 for the default ports) and Anvil's for everything
 * else a createDevnet option sets (cli/flags.ts). Prints the dev accounts (EVM and
 * native) and both URLs, logs one line per request and per mined block (unless
 * `--quiet`), stops cleanly on SIGINT/SIGTERM, writing `--dump-state` first. A bad
 * flag or a port in use is one line on stderr and exit code 1. Colour only on a
 * terminal, never with NO_COLOR set (no-color.org).
 *
 * This entry does two things before the rest loads: it enables Node's compile cache
 * (Node ≥ 22.8; util/compileCache.ts), so a fresh CLI process reuses the compiled code
 * of fastify, the EVM and dualnet itself, and it installs the SIGINT/SIGTERM handlers
 * (cli/stopSignals.ts), so a signal during start-up stops the process too.
 */
import './util/compileCache.ts'
import { installStopSignals } from './cli/stopSignals.ts'

const signals = installStopSignals()
const { runCli } = await import('./cli/main.ts')
await runCli(process.argv.slice(2), signals)
