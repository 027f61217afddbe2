#!/usr/bin/env node
/**
 * `dualnet`: the devnet as a program, with the node's flags (spec: "--rest",
 * "--restport <port>"; reference §0 for the default ports). Prints the dev accounts
 * and both URLs, logs one line per request, stops cleanly on SIGINT/SIGTERM. A bad
 * flag or a port in use is one line on stderr and exit code 1.
 */
import { Command, InvalidArgumentError } from 'commander'
import { createDevnet, type Devnet } from './index.ts'
import { VERSION } from './version.ts'

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
}>()

let devnet: Devnet | undefined
try {
  devnet = await createDevnet({ chainId: flags.chainId, accounts: flags.accounts, blockTime: flags.blockTime })
  const urls = await devnet.listen({
    host: flags.host,
    rpcPort: flags.rpcport,
    restPort: flags.restport,
    rest: flags.rest,
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  })
  console.log(`dualnet v${VERSION}: chain id ${flags.chainId}`)
  console.log('\nDev accounts (10,000 main and 10,000 gas each):')
  devnet.accounts.forEach((account, i) => {
    console.log(`(${i}) ${account.address}  ${account.base58}`)
    console.log(`    private key ${account.privateKey}`)
  })
  console.log(`\nJSON-RPC  ${urls.rpcUrl}`)
  console.log(urls.restUrl === undefined ? 'REST      off (enable with --rest)' : `REST      ${urls.restUrl}`)
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
  void devnet!.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`dualnet: ${(err as Error).message}`)
      process.exit(1)
    },
  )
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
