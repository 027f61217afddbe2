/**
 * What the CLI prints: colour rules, the start-up banner (dev accounts in the forms
 * wallets take, URLs) and the per-block lines.
 */
import { styleText } from 'node:util'
import type { Devnet, DevnetUrls } from '../devnet.ts'
import { chainOf } from '../devnet/provider.ts'
import { base58Check } from '../native/address.ts'
import { concatBytes, fromHex } from '../util/hex.ts'
import { describeValue } from '../errors/describe.ts'
import { grouped } from '../options/rules.ts'
import { VERSION } from '../version.ts'
import type { CliFlags } from './flags.ts'

/** Whether to colour stdout: a terminal, and NO_COLOR unset or empty (no-color.org); styleText then also applies Node's colour-depth rules (TERM, CI, FORCE_COLOR). */
const COLOR = process.stdout.isTTY === true && !process.env.NO_COLOR
/** `text` in an ANSI style when colouring, else as is. */
export const paint = (style: Parameters<typeof styleText>[0], text: string): string => (COLOR ? styleText(style, text) : text)

/**
 * WIF of a P-256 private key, as the chain's SDK serialises it (`PrivateKey.serializeWIF`:
 * Base58Check of 0x80 ‖ key ‖ 0x01, the checksum the first 4 bytes of SHA256d) and
 * wallets import it.
 */
function wif(privateKey: Uint8Array): string {
  return base58Check(concatBytes(Uint8Array.of(0x80), privateKey, Uint8Array.of(0x01)))
}

/** Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost): the only binding without a warning. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/**
 * Prints the start-up banner: version, chain id and hardfork, how blocks are mined,
 * the EVM and native dev accounts with their keys, and the URLs.
 */
export function printBanner(devnet: Devnet, urls: DevnetUrls, flags: CliFlags): void {
  console.log(paint('bold', `dualnet v${VERSION}: chain id ${devnet.chainId}, hardfork ${flags.hardfork}`))
  if (flags.forkUrl !== undefined) console.log(`Fork      ${flags.forkUrl} at block ${chainOf(devnet).firstHeight}; state fetched on first read`)
  const interval = flags.blockTime > 0 ? `a block every ${flags.blockTime} s` : undefined
  console.log(`Mining    ${[flags.mining ? 'automine' : 'automine off (evm_mine mines on request)', interval].filter(Boolean).join(', ')}`)
  if (flags.db !== undefined) console.log(devnet.resumed ? `Database  resumed the chain in ${flags.db} at block ${chainOf(devnet).height}` : `Database  created a new chain in ${flags.db}`)
  const balance = grouped(flags.balance)
  console.log(`\n${paint('bold', `Dev accounts (${balance} main and ${balance} gas each):`)}`)
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
  if (urls.explorerUrl !== undefined) console.log(`${paint('bold', 'Explorer')}  ${urls.explorerUrl}`)
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
export function blockReporter(devnet: Devnet, print: (line: string) => void): () => void {
  let chain = chainOf(devnet)
  let reported = chain.height
  return () => {
    // Read each time: a reset (hardhat_reset) replaces the devnet's chain.
    if (chainOf(devnet) !== chain) {
      chain = chainOf(devnet)
      reported = 0
      print(paint('yellow', 'chain reset to a new genesis'))
    }
    const height = chain.height
    if (height < reported) print(paint('yellow', `chain reverted to block ${height}`))
    else if (height - reported > MAX_BLOCK_LINES) {
      print(`${paint('green', `blocks ${reported + 1}–${height}`)} mined (${grouped(height - reported)} blocks, the last at ${chain.timestampAt(height)})`)
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
        print(`${paint('green', `block ${h}`)}  ${paint('dim', hash)}  ${evm} EVM + ${native} native txs  gas used ${grouped(block.gasUsed)}  time ${block.header.timestamp}`)
      }
    }
    reported = height
  }
}

/**
 * The line (without `dualnet: `) of a start that failed with `err`: its message, and for
 * a port in use (EADDRINUSE, whose error names the port) which server's port it is and
 * the flag to give instead: port 0 takes any free port, which the banner prints.
 */
export function startFailure(err: unknown, flags: Pick<CliFlags, 'port' | 'rpcport' | 'restport' | 'rest'>): string {
  if (!(err instanceof Error)) return describeValue(err)
  const e = err as NodeJS.ErrnoException & { port?: number }
  if (e.code !== 'EADDRINUSE') return e.message
  const why = e.message.replace(/^.*EADDRINUSE: /, '')
  // -p is Anvil's --rpcport: the flag given is the one named.
  const servers = [
    { name: 'JSON-RPC', flag: flags.port !== undefined ? '--port' : '--rpcport', port: flags.port ?? flags.rpcport },
    ...(flags.rest ? [{ name: 'REST', flag: '--restport', port: flags.restport }] : []),
  ].filter((server) => server.port === e.port)
  if (servers.length === 1) return `the ${servers[0]!.name} port is in use: ${why}. Pass ${servers[0]!.flag} 0 for any free port, or another port`
  // Both servers asked for the same port, or the error does not say which.
  const flagsOf = (servers.length === 0 ? [{ flag: flags.port !== undefined ? '--port' : '--rpcport' }, { flag: '--restport' }] : servers).map((server) => `${server.flag} 0`)
  return `a port is in use: ${why}. Pass ${flagsOf.join(' and ')} for any free ports, or other ports (the two servers need a port each)`
}
