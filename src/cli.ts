#!/usr/bin/env node
/**
 * `dualnet`: the devnet as a program, with the node's flags (spec: "--rest",
 * "--restport <port>"; reference §0 for the default ports). Prints the dev accounts
 * (EVM and native) and both URLs, logs one line per request and per mined block
 * (unless `--quiet`), stops cleanly on SIGINT/SIGTERM. A bad flag or a port in use is
 * one line on stderr and exit code 1. Colour only on a terminal, never with NO_COLOR
 * set (no-color.org).
 */
import { styleText } from 'node:util'
import { Command, InvalidArgumentError } from 'commander'
import bs58 from 'bs58'
import { createDevnet, type Devnet } from './index.ts'
import { sha256d } from './util/hash.ts'
import { concatBytes, fromHex } from './util/hex.ts'
import { VERSION } from './version.ts'
import { fileExists, openLevelDirectory, readStateFile, writeStateFile } from './chain/persistence/files.ts'

/** Default REST port of the node (`DEFAULT_REST_PORT`). */
const DEFAULT_REST_PORT = 20334
/** Default EVM JSON-RPC port of the node (`DEFAULT_ETH_RPC_PORT`). */
const DEFAULT_RPC_PORT = 20339

function integer(min: number, max: number, what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${what} must be a whole number`)
    const n = Number(value)
    if (n < min || n > max) throw new InvalidArgumentError(`${what} must be between ${min} and ${max}`)
    return n
  }
}

/** Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost): the only binding without a warning. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/** Whether to colour stdout: a terminal, and NO_COLOR unset or empty (no-color.org); styleText then also applies Node's colour-depth rules (TERM, CI, FORCE_COLOR). */
const COLOR = process.stdout.isTTY === true && !process.env.NO_COLOR
/** `text` in an ANSI style when colouring, else as is. */
const paint = (style: Parameters<typeof styleText>[0], text: string): string => (COLOR ? styleText(style, text) : text)

/**
 * WIF of a P-256 private key, as the chain's SDK serialises it (`PrivateKey.serializeWIF`:
 * Base58Check of 0x80 ‖ key ‖ 0x01, the checksum the first 4 bytes of SHA256d) and
 * wallets import it.
 */
function wif(privateKey: Uint8Array): string {
  const payload = concatBytes(Uint8Array.of(0x80), privateKey, Uint8Array.of(0x01))
  return bs58.encode(concatBytes(payload, sha256d(payload).subarray(0, 4)))
}

/** Above this many new blocks at once (e.g. `hardhat_mine`), one line covers them all. */
const MAX_BLOCK_LINES = 10

/**
 * A checker that prints one line per block mined since its last call: height, hash,
 * transactions (EVM and native), gas used, timestamp; one line for a long run of
 * blocks, whose reserved empty blocks it does not build, one when a revert lowered
 * the height, and one when a reset replaced the chain. Called after each request and
 * on a timer (interval mining).
 */
function blockReporter(devnet: Devnet, print: (line: string) => void): () => void {
  let chain = devnet.chain
  let reported = chain.height
  return () => {
    // Read each time: a reset (hardhat_reset) replaces the devnet's chain.
    if (devnet.chain !== chain) {
      chain = devnet.chain
      reported = 0
      print(paint('yellow', 'chain reset to a new genesis'))
    }
    const height = chain.height
    if (height < reported) print(paint('yellow', `chain reverted to block ${height}`))
    else if (height - reported > MAX_BLOCK_LINES) {
      print(`${paint('green', `blocks ${reported + 1}–${height}`)} mined (${(height - reported).toLocaleString('en-US')} blocks, the last at ${chain.timestampAt(height)})`)
    } else {
      for (let h = reported + 1; h <= height; h++) {
        if (chain.isPendingEmpty(h)) {
          print(`${paint('green', `block ${h}`)}  empty  time ${chain.timestampAt(h)}`)
          continue
        }
        const block = chain.blockAt(h)!
        const evm = block.transactions.filter((tx) => tx.kind === 'evm').length
        const native = block.transactions.length - evm
        const hash = `0x${Buffer.from(block.hash).toString('hex')}`
        print(`${paint('green', `block ${h}`)}  ${paint('dim', hash)}  ${evm} EVM + ${native} native txs  gas used ${block.gasUsed.toLocaleString('en-US')}  time ${block.header.timestamp}`)
      }
    }
    reported = height
  }
}

const program = new Command()
  .name('dualnet')
  .description('An in-process devnet of a chain with a native REST interface and an EVM JSON-RPC interface over one ledger.')
  .version(VERSION)
  .option('--rest', 'enable the REST interface', false)
  .option('--restport <port>', 'REST port', integer(0, 65535, 'the REST port'), DEFAULT_REST_PORT)
  .option('--rpcport <port>', 'JSON-RPC port', integer(0, 65535, 'the JSON-RPC port'), DEFAULT_RPC_PORT)
  .option('--host <host>', 'interface to listen on', '127.0.0.1')
  .option('--chain-id <id>', 'EIP-155 chain id', integer(1, 2 ** 53 - 1, 'the chain id'), 12345)
  .option('--accounts <n>', 'number of funded dev accounts', integer(1, 10_000, 'the account count'), 10)
  .option('--block-time <seconds>', 'mine a block every N seconds (0: off, automine only)', integer(0, 86_400, 'the block time'), 0)
  .option('--db <dir>', 'keep the chain in a LevelDB directory: created there, or resumed from it')
  .option('--load-state <file>', 'start from a state document (devnet.dumpState / anvil_dumpState JSON)')
  .option('--dump-state <file>', 'write the head state document to <file> on exit')
  .option('--state <file>', 'both: load <file> if it exists, write it on exit')
  .option('--body-limit <bytes>', 'largest request body either server accepts', integer(1, 2 ** 31 - 1, 'the body limit'), 5 * 1024 * 1024)
  .option('--batch-limit <n>', 'most requests in one JSON-RPC batch', integer(1, 2 ** 31 - 1, 'the batch limit'), 1000)
  .option('--cors <origins>', 'origins the JSON-RPC server allows, comma-separated ("*": any, "none": no CORS headers)', '*')
  .option('-q, --quiet', 'no line per request or mined block (the accounts and URLs are still printed)', false)
  .addHelpText(
    'after',
    `
Examples:
  $ dualnet --rest                                    REST on 20334, JSON-RPC on 20339, as the node
  $ dualnet --rest --restport 0 --rpcport 0 --quiet   ephemeral ports (printed), no per-request lines
  $ dualnet --accounts 3 --block-time 6               3 dev accounts, a block every 6 s besides automine
  $ dualnet --chain-id 31337 --host 0.0.0.0           Hardhat's chain id, reachable from other machines

In the dualnet repository: npm start -- --rest (the source, through tsx).
Dev accounts: EVM keys are the default mnemonic's (Hardhat's and Anvil's); native keys are
P-256 (ontology-ts-sdk: new Crypto.PrivateKey(hex) or PrivateKey.deserializeWIF(wif)).
Colour only on a terminal that supports it (Node's rules: TERM, CI, FORCE_COLOR); NO_COLOR=1 turns it off.`,
  )
  .showHelpAfterError(false)
  .configureOutput({ outputError: (text, write) => write(`dualnet: ${text.replace(/^error: /, '')}`) })

program.parse()
const flags = program.opts<{
  rest: boolean
  restport: number
  rpcport: number
  host: string
  chainId: number
  accounts: number
  blockTime: number
  bodyLimit: number
  batchLimit: number
  cors: string
  quiet: boolean
  db?: string
  loadState?: string
  dumpState?: string
  state?: string
}>()
const statePaths = {
  load: flags.loadState ?? (flags.state !== undefined && fileExists(flags.state) ? flags.state : undefined),
  dump: flags.dumpState ?? flags.state,
}

let devnet: Devnet | undefined
try {
  devnet = await createDevnet({
    chainId: flags.chainId,
    accounts: flags.accounts,
    blockTime: flags.blockTime,
    bodyLimit: flags.bodyLimit,
    batchLimit: flags.batchLimit,
    ...(flags.db === undefined ? {} : { db: await openLevelDirectory(flags.db) }),
    ...(statePaths.load === undefined ? {} : { state: await readStateFile(statePaths.load) }),
  })
  const stamped = (line: string) => console.log(`${paint('dim', new Date().toISOString())} ${line}`)
  const reportBlocks = flags.quiet ? undefined : blockReporter(devnet, stamped)
  const urls = await devnet.listen({
    host: flags.host,
    rpcPort: flags.rpcport,
    restPort: flags.restport,
    rest: flags.rest,
    cors: flags.cors === 'none' ? false : flags.cors === '*' ? '*' : flags.cors.split(',').map((origin) => origin.trim()),
    // Blocks a request mined are printed before the request's own line.
    log: reportBlocks === undefined ? undefined : (line) => (reportBlocks(), stamped(line)),
  })
  console.log(paint('bold', `dualnet v${VERSION}: chain id ${flags.chainId}`))
  if (!isLoopback(flags.host)) {
    console.error(`dualnet: warning: listening on ${flags.host}, not loopback: anyone who reaches this machine can send transactions from the dev accounts, whose keys are public`)
  }
  if (flags.db !== undefined) console.log(devnet.resumed ? `Database  resumed the chain in ${flags.db} at block ${devnet.chain.height}` : `Database  created a new chain in ${flags.db}`)
  console.log(`\n${paint('bold', 'Dev accounts (10,000 main and 10,000 gas each):')}`)
  devnet.accounts.forEach((account, i) => {
    console.log(`(${i}) ${paint('cyan', account.address)}  ${account.base58}`)
    console.log(`    private key ${account.privateKey}`)
  })
  console.log(`\n${paint('bold', 'Native dev accounts (P-256 keys, for ontology-ts-sdk and wallets; 10,000 main and 10,000 gas each):')}`)
  devnet.nativeAccounts.forEach((account, i) => {
    console.log(`(${i}) ${paint('cyan', account.base58)}  ${account.address}`)
    console.log(`    private key ${account.privateKey.slice(2)}  WIF ${wif(fromHex(account.privateKey))}`)
  })
  console.log(`\n${paint('bold', 'JSON-RPC')}  ${urls.rpcUrl}`)
  console.log(`${paint('bold', 'WebSocket')} ${urls.rpcUrl.replace(/^http/, 'ws')} (JSON-RPC and eth_subscribe, same port)`)
  console.log(urls.restUrl === undefined ? `${paint('bold', 'REST')}      off (enable with --rest)` : `${paint('bold', 'REST')}      ${urls.restUrl}`)
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
