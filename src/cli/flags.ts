/**
 * The CLI's flags: one commander option per createDevnet / listen option a user can
 * set, named as Anvil names it where Anvil has the flag (`--hardfork`, `--mnemonic`,
 * `--balance`, `--timestamp`, `--no-mining`, `--gas-price`, …) and as the node names
 * it otherwise (`--rest`, `--restport`, `--rpcport`, reference §0); Anvil's and Hardhat's
 * other spellings are taken too (flagAliases.ts: `--rest-port`, `--no-mine`, …). Each value is
 * checked as it is parsed, by the rule of the createDevnet or listen option it sets
 * (src/options/): a bad one is commander's `option '--x <v>' argument 'y' is
 * invalid. <why>`, which the CLI prints as one line before exit code 1.
 */
import { Command, Option } from 'commander'
import { deriveDevKeys, DEFAULT_MNEMONIC } from '../chain/devAccounts.ts'
import { GAS_UNIT, MAIN_TOTAL_SUPPLY, MAIN_UNIT } from '../core/constants.ts'
import type { ClockMode } from '../chain/clock.ts'
import type { BlockContext } from '../chain/chain.ts'
import type { AnswerProfile, EmptyStorageAnswer } from '../core/answers.ts'
import type { ClientVersionOption } from '../rpc/methods/web3_clientVersion.ts'
import type { DevnetOptions, Hardfork, ListenOptions } from '../options/types.ts'
import { HARDFORKS } from '../options/hardforks.ts'
import { ACCOUNT_COUNT } from '../options/devnetRules.ts'
import { grouped } from '../options/rules.ts'
import type { Hex } from '../util/hex.ts'
import { VERSION } from '../version.ts'
import { LIMIT_DEFAULTS } from '../core/limits.ts'
import { EXPLORER_ARTIFACTS_RULE } from '../options/listenRules.ts'
import { addFlagAliases } from './flagAliases.ts'
import { answerChoice, bigInteger, clock, cors, directory, forkBlockNumber, gasPriceWei, hardfork, httpUrl, mnemonic, percent, privateKey, unboundDeadline, vhosts } from './flagParsers.ts'
import { ruleParser } from './optionFlags.ts'

/** Default REST port of the node (`DEFAULT_REST_PORT`). */
export const DEFAULT_REST_PORT = 20334
/** Default EVM JSON-RPC port of the node (`DEFAULT_ETH_RPC_PORT`). */
export const DEFAULT_RPC_PORT = 20339
/** Tokens of each kind a dev account holds unless `--balance` says otherwise (createDevnet's default). */
export const DEFAULT_BALANCE = 10_000n
/** Native dev accounts unless `--native-accounts` says otherwise (createDevnet's default). */
const DEFAULT_NATIVE_ACCOUNTS = 5

/** Every flag's value after parsing (commander's camel-case names). */
export interface CliFlags {
  rest: boolean
  explorer: boolean
  /** With --explorer: the compiler output whose contracts the page names (listen's `explorer.artifacts`). */
  artifacts?: string
  restport: number
  rpcport: number
  port?: number
  host: string
  /** Absent: 12345, or a fork's remote's. */
  chainId?: number
  hardfork: Hardfork
  /** Artifacts path of --coverage; absent: coverage off. */
  coverage?: string
  coverageDir: string
  /** Artifacts path of --gas-report; absent: no gas report. */
  gasReport?: string
  gasReportDir?: string
  accounts: number
  nativeAccounts: number
  /** --gas-snapshot's file; absent: the option's default, `.gas-snapshot.json`. */
  gasSnapshot?: string
  gasSnapshotCheck: boolean
  gasSnapshotTolerance?: number
  mnemonic: string
  balance: bigint
  timestamp?: number
  mining: boolean
  blockTime: number
  clock: ClockMode
  minGasPrice: bigint
  gasPrice?: bigint
  bookkeeperKey?: Hex
  unboundGas?: true | number
  disableConsoleLog: boolean
  bodyLimit: number
  batchLimit: number
  batchResponseLimit: number
  hexLimit: number
  jsonDepthLimit: number
  logsBlockRange: number
  logsResultLimit: number
  filterLimit: number
  subscriptionLimit: number
  traceSizeLimit: number
  mineLimit: number
  traceTimeout: number
  batchTraceTimeout: number
  stateLimit: number
  wsBufferLimit: number
  /** `--cors`'s origins, `*`, or `false` for `none`. */
  cors: '*' | string[] | false
  vhosts: '*' | string[]
  profile: AnswerProfile
  blockContext: BlockContext | undefined
  emptyStorage: EmptyStorageAnswer | undefined
  stateRoot: 'zero' | 'merkle'
  clientVersion: ClientVersionOption
  quiet: boolean
  db?: string
  forkUrl?: string
  forkRestUrl?: string
  forkBlockNumber?: number
  /** A directory, `false` (--no-fork-cache) or absent (the default). */
  forkCache?: string | false
  loadState?: string
  dumpState?: string
  state?: string
}

/**
 * The program with every flag, its help text and examples. A new Command each call:
 * tests parse with `exitOverride()` in process. Parse it with {@link parseFlags}.
 */
export function cliProgram(): Command {
  return addFlagAliases(
    new Command()
      .name('dualnet')
      .description('An in-process devnet of a chain with a native REST interface and an EVM JSON-RPC interface over one ledger.')
      .version(VERSION)
      // Servers (the node's names).
      .option('--rest', 'enable the REST interface', false)
      .option('--explorer', 'serve the explorer page at /explorer on the JSON-RPC port (both views of the chain; the native one needs --rest)', false)
      .addOption(
        new Option(
          '--artifacts <dir>',
          "with --explorer: name contracts and decode their calls, events and errors from <dir>'s compiler output (a Hardhat or Foundry project, an artifacts or build-info directory, or solc standard-JSON output), read when the page asks (default: none)",
        ).argParser(ruleParser('explorer', (text) => text, EXPLORER_ARTIFACTS_RULE) as (text: string) => string),
      )
      .option('--restport <port>', 'REST port', ruleParser('restPort'), DEFAULT_REST_PORT)
      .option('--rpcport <port>', 'JSON-RPC port (WebSocket on the same port)', ruleParser('rpcPort'), DEFAULT_RPC_PORT)
      .addOption(new Option('-p, --port <port>', "the JSON-RPC port, Anvil's name for --rpcport (default: --rpcport's)").argParser(ruleParser('rpcPort')).conflicts('rpcport'))
      .option('--host <host>', 'interface to listen on', ruleParser('host'), '127.0.0.1')
      .option('--cors <origins>', 'origins the JSON-RPC server allows (CORS) and WebSocket upgrades may come from, comma-separated ("*": any, "none": none)', cors, '*')
      .addOption(
        new Option('--vhosts <names>', 'host names both servers answer (Host header), comma-separated ("*": any); IP addresses are always answered')
          .argParser(vhosts)
          .default(['localhost'], 'localhost'),
      )
      // The chain.
      .addOption(new Option('--chain-id <id>', "EIP-155 chain id (default: 12345; with --fork-url the remote's)").argParser(ruleParser('chainId')))
      .option('--hardfork <name>', `EVM rules: ${HARDFORKS.join(', ')} (the chain runs istanbul; shanghai and later bring PUSH0 and newer opcodes)`, hardfork, 'istanbul')
      .option('--timestamp <seconds>', 'Unix timestamp of the genesis block (default: now)', ruleParser('genesisTimestamp'))
      .addOption(
        new Option('--clock <mode>', 'how block time advances: "wall", "frozen" (moved only by time controls, +1 s per block) or N (each block N seconds after its parent)')
          .argParser(clock)
          .default('wall'),
      )
      .addOption(new Option('--bookkeeper-key <hex>', 'P-256 private key of the block-signing bookkeeper (default: a fixed devnet key)').argParser(privateKey))
      .addOption(
        new Option('--profile <answers>', 'whose answers where the node and go-ethereum, Hardhat and Anvil differ: "node" or "ethereum" (sets --block-context and --empty-storage)')
          .choices(['node', 'ethereum'])
          .default('node'),
      )
      .addOption(
        new Option(
          '--block-context <mode>',
          'NUMBER and TIMESTAMP of eth_call and eth_estimateGas at block N: "node" (N, N\'s timestamp + 1, as the node) or "ethereum" (N\'s own, as go-ethereum, Hardhat, Anvil) (choices: "node", "ethereum"; default: the profile\'s)',
        ).argParser(answerChoice),
      )
      .addOption(
        new Option(
          '--empty-storage <answer>',
          'eth_getStorageAt of a slot that holds nothing: "node" ("0x", as the node) or "ethereum" (32 zero bytes, as go-ethereum, Hardhat, Anvil) (choices: "node", "ethereum"; default: the profile\'s)',
        ).argParser(answerChoice),
      )
      .addOption(
        new Option(
          '--state-root <mode>',
          'the EVM blocks\' stateRoot: "zero" (the node\'s zero hash; eth_getProof refused, as the node) or "merkle" (the Ethereum state trie per block, computed when asked; eth_getProof answers EIP-1186 proofs; not with --fork-url)',
        )
          .argParser(ruleParser('stateRoot', (text) => text) as (text: string) => 'zero' | 'merkle')
          .default('zero'),
      )
      .addOption(
        new Option(
          '--client-version <name>',
          'what web3_clientVersion answers: "hardhat" (HardhatNetwork/dualnet/v…, which Hardhat\'s network helpers and OpenZeppelin\'s upgrades plugins require) or "node" (the real node\'s)',
        )
          .choices(['hardhat', 'node'])
          .default('hardhat'),
      )
      .addOption(
        new Option(
          '--unbound-gas [deadline]',
          'accrue unbound gas to main-token holders by the real schedule, until <deadline> seconds after genesis (default: off; with no deadline, the whole schedule)',
        ).argParser(unboundDeadline),
      )
      // Dev accounts.
      .option('-a, --accounts <n>', 'number of funded dev accounts', ruleParser('accounts', undefined, ACCOUNT_COUNT) as (text: string) => number, 10)
      .option('--native-accounts <n>', 'number of funded native dev accounts (P-256 keys)', ruleParser('nativeAccounts'), DEFAULT_NATIVE_ACCOUNTS)
      .addOption(new Option('-m, --mnemonic <words>', "mnemonic of the dev accounts (m/44'/60'/0'/0/i)").argParser(mnemonic).default(DEFAULT_MNEMONIC, `"${DEFAULT_MNEMONIC}"`))
      .addOption(
        new Option('--balance <tokens>', 'balance of each dev account, in whole tokens of both kinds: gas (ether on JSON-RPC) and main')
          .argParser(bigInteger(MAIN_TOTAL_SUPPLY / MAIN_UNIT, 'the balance'))
          .default(DEFAULT_BALANCE, grouped(DEFAULT_BALANCE)),
      )
      // Mining and the pool.
      .option('--no-mining', 'turn automine off: transactions wait in the pool until evm_mine (or --block-time) (default: automine on)')
      .option('-b, --block-time <seconds>', 'mine a block every N seconds (0: off)', ruleParser('blockTime'), 0)
      .addOption(new Option('--min-gas-price <gwei>', 'lowest gas price the pool accepts, in gwei; also eth_gasPrice before any transaction').argParser(ruleParser('minGasPrice')).default(0n, '0'))
      .addOption(new Option('--gas-price <wei>', "Anvil's name for the same minimum, in wei (a whole number of gwei) (default: 0)").argParser(gasPriceWei).conflicts('minGasPrice'))
      .option('--disable-console-log', 'do not print Solidity console.log lines', false)
      // Gas snapshots of dualnet_gasSnapshot (docs/gas-snapshots.md).
      .option('--gas-snapshot <file>', 'the gas snapshot file dualnet_gasSnapshot writes or checks (default: .gas-snapshot.json)')
      .option('--gas-snapshot-check', 'check each dualnet_gasSnapshot against the file instead of writing it; list every change and exit with 1 on stop', false)
      .addOption(new Option('--gas-snapshot-tolerance <percent>', 'with --gas-snapshot-check, how far a measurement may move and pass, in percent (default: 0)').argParser(percent))
      // Coverage (docs/coverage.md).
      .option(
        '--coverage <artifacts>',
        'measure Solidity coverage of the contracts in <artifacts> (a Hardhat or Foundry project, a build-info directory or solc standard-JSON output); reports written on exit, and served by dualnet_coverage (default: off)',
      )
      .option('--coverage-dir <dir>', 'where --coverage writes lcov.info, coverage-final.json and the HTML report on exit', 'coverage')
      .option(
        '--gas-report <artifacts>',
        'print a gas report on exit: per contract and function of <artifacts> (as --coverage), the calls of mined transactions with min / median / max gas, deployments and code size (default: off)',
      )
      .option('--gas-report-dir <dir>', 'also write the gas report there as gas-report.json and gas-report.md (default: none)')
      // Forking (Anvil's names).
      .addOption(
        new Option('-f, --fork-url <url>', 'fork the JSON-RPC node at <url>: its chain id and state, fetched on first read (docs/fork.md) (default: none)').argParser(httpUrl('a JSON-RPC node')),
      )
      .addOption(
        new Option(
          '--fork-rest-url <url>',
          "the forked node's REST URL: its native state (main-token balances, allowances, unbound gas, native storage) and network id (default: none, the EVM view only)",
        ).argParser(httpUrl("the node's REST interface")),
      )
      .addOption(new Option('--fork-block-number <n>', "block to fork at; a past block needs a remote that serves past state (default: the remote's latest)").argParser(forkBlockNumber))
      .addOption(
        new Option('--fork-cache <dir>', 'directory of the disk cache of values fetched from the remote (default: with --fork-block-number, ~/.cache/dualnet/fork; without, none)').argParser(
          directory('the fork cache directory'),
        ),
      )
      .option('--no-fork-cache', 'keep fetched values in memory only (default: the cache as --fork-cache says)')
      // Persistence.
      .option('--db <dir>', 'keep the chain in a LevelDB directory: created there, or resumed from it (default: none, the chain lives in memory)')
      .option('--load-state <file>', 'start from a state document (devnet.dumpState / anvil_dumpState JSON) (default: none)')
      .option('--dump-state <file>', 'write the head state document to <file> on exit (default: none)')
      .option('--state <file>', 'both: load <file> if it exists, write it on exit (default: none)')
      // Limits.
      .option('--body-limit <bytes>', 'largest request body either server accepts', ruleParser('bodyLimit'), LIMIT_DEFAULTS.bodyLimit)
      .option('--batch-limit <n>', 'most requests in one JSON-RPC batch', ruleParser('batchLimit'), LIMIT_DEFAULTS.batchLimit)
      .option('--batch-response-limit <bytes>', "bytes of answers after which a batch's remaining requests are refused", ruleParser('batchResponseLimit'), LIMIT_DEFAULTS.batchResponseLimit)
      .option('--hex-limit <digits>', 'longest string in JSON-RPC params, in hex digits', ruleParser('hexLimit'), LIMIT_DEFAULTS.hexLimit)
      .option('--json-depth-limit <n>', 'deepest nesting of arrays and objects in a request', ruleParser('jsonDepthLimit'), LIMIT_DEFAULTS.jsonDepthLimit)
      .option('--logs-block-range <n>', 'widest toBlock - fromBlock of eth_getLogs', ruleParser('logsBlockRange'), LIMIT_DEFAULTS.logsBlockRange)
      .option('--logs-result-limit <n>', 'most logs one query answers', ruleParser('logsResultLimit'), LIMIT_DEFAULTS.logsResultLimit)
      .option('--filter-limit <n>', 'most installed polling filters', ruleParser('filterLimit'), LIMIT_DEFAULTS.filterLimit)
      .option('--subscription-limit <n>', 'most live eth_subscribe subscriptions', ruleParser('subscriptionLimit'), LIMIT_DEFAULTS.subscriptionLimit)
      .option('--trace-size-limit <bytes>', 'largest struct-log trace, in bytes of JSON', ruleParser('traceSizeLimit'), LIMIT_DEFAULTS.traceSizeLimit)
      .option('--mine-limit <n>', 'most blocks one mine call may add', ruleParser('mineLimit'), LIMIT_DEFAULTS.mineLimit)
      .option('--trace-timeout <ms>', 'longest one trace runs, unless its tracer option timeout says otherwise', ruleParser('traceTimeout'), LIMIT_DEFAULTS.traceTimeout)
      .option('--batch-trace-timeout <ms>', 'longest the traces of one JSON-RPC batch run in all', ruleParser('batchTraceTimeout'), LIMIT_DEFAULTS.batchTraceTimeout)
      .option('--state-limit <bytes>', 'largest state document anvil_loadState or --load-state reads, in bytes of JSON after inflating', ruleParser('stateLimit'), LIMIT_DEFAULTS.stateLimit)
      .option('--ws-buffer-limit <bytes>', 'bytes a WebSocket client may leave unread before its socket is closed (1008)', ruleParser('wsBufferLimit'), LIMIT_DEFAULTS.wsBufferLimit)
      .option('-q, --quiet', 'no line per request or mined block (the accounts and URLs are still printed)', false)
      .addHelpText(
        'after',
        `
Examples:
  $ dualnet --rest                                    REST on 20334, JSON-RPC on 20339, as the node
  $ dualnet --rest --restport 0 --rpcport 0 --quiet   ephemeral ports (printed), no per-request lines
  $ dualnet --accounts 3 --block-time 6               3 dev accounts, a block every 6 s besides automine
  $ dualnet --hardfork shanghai --balance 1000000     PUSH0 (solc >= 0.8.20 default), richer accounts
  $ dualnet --no-mining --timestamp 1700000000        mine on request (evm_mine) from a fixed genesis time
  $ dualnet --chain-id 31337 --host 0.0.0.0           Hardhat's chain id, reachable from other machines by IP
  $ dualnet --host 0.0.0.0 --vhosts devbox.lan        ... and by the name devbox.lan

In the dualnet repository: npm start -- --rest (the source, through tsx).
Dev accounts: EVM keys are the default mnemonic's (Hardhat's and Anvil's); native keys are
P-256 (ontology-ts-sdk: new Crypto.PrivateKey(hex) or PrivateKey.deserializeWIF(wif)).
Colour only on a terminal that supports it (Node's rules: TERM, CI, FORCE_COLOR); NO_COLOR=1 turns it off.`,
      )
      .showHelpAfterError(false)
      .configureOutput({ outputError: (text, write) => write(`dualnet: ${text.replace(/^error: /, '')}`) }),
  )
}

/**
 * Parses `argv` (user arguments, without node and the script) and checks what no
 * single flag's parser can: that the dev accounts' balances fit in the token
 * supplies. Errors go through `program.error` (one line, exit code 1; a
 * CommanderError under `exitOverride`).
 */
export function parseFlags(program: Command, argv: readonly string[]): CliFlags {
  program.parse(argv, { from: 'user' })
  const flags = program.opts<CliFlags>()
  if (flags.forkRestUrl !== undefined && flags.forkUrl === undefined) program.error("option '--fork-rest-url <url>' needs --fork-url: it forks the same node's native state", { exitCode: 1 })
  if (flags.artifacts !== undefined && !flags.explorer) program.error("option '--artifacts <dir>' needs --explorer: it names the contracts the explorer page shows", { exitCode: 1 })
  if (flags.forkBlockNumber !== undefined && flags.forkUrl === undefined) program.error("option '--fork-block-number <n>' needs --fork-url: it says where to fork the remote", { exitCode: 1 })
  // Each token's supply (1e9 tokens, reference §0) holds every account's balance: the native accounts keep createDevnet's 10,000.
  const wanted = flags.balance * BigInt(flags.accounts) + DEFAULT_BALANCE * BigInt(flags.nativeAccounts)
  if (wanted > MAIN_TOTAL_SUPPLY / MAIN_UNIT) {
    program.error(
      `option '--balance <tokens>' argument '${flags.balance}' is invalid. ${flags.accounts} accounts of ${grouped(flags.balance)} tokens and ${flags.nativeAccounts} native accounts of 10,000 exceed the supply of 1,000,000,000 tokens`,
      { exitCode: 1 },
    )
  }
  return flags
}

/** The createDevnet options the flags ask for (without `db` and `state`, which the CLI opens). */
export async function devnetOptionsOf(flags: CliFlags): Promise<DevnetOptions> {
  const options: DevnetOptions = {
    hardfork: flags.hardfork,
    profile: flags.profile,
    blockContext: flags.blockContext,
    emptyStorage: flags.emptyStorage,
    stateRoot: flags.stateRoot,
    clientVersion: flags.clientVersion,
    nativeAccounts: flags.nativeAccounts,
    mnemonic: flags.mnemonic,
    automine: flags.mining,
    blockTime: flags.blockTime,
    clock: flags.clock,
    minGasPrice: flags.gasPrice ?? flags.minGasPrice,
    console: !flags.disableConsoleLog,
    ...(flags.gasSnapshot === undefined && !flags.gasSnapshotCheck && flags.gasSnapshotTolerance === undefined
      ? {}
      : { gasSnapshot: { file: flags.gasSnapshot, check: flags.gasSnapshotCheck, tolerance: flags.gasSnapshotTolerance } }),
    ...(flags.coverage === undefined ? {} : { coverage: { artifacts: flags.coverage, dir: flags.coverageDir } }),
    ...(flags.gasReport === undefined ? {} : { gasReport: { artifacts: flags.gasReport, ...(flags.gasReportDir === undefined ? {} : { dir: flags.gasReportDir }) } }),
    bodyLimit: flags.bodyLimit,
    batchLimit: flags.batchLimit,
    batchResponseLimit: flags.batchResponseLimit,
    hexLimit: flags.hexLimit,
    jsonDepthLimit: flags.jsonDepthLimit,
    logsBlockRange: flags.logsBlockRange,
    logsResultLimit: flags.logsResultLimit,
    filterLimit: flags.filterLimit,
    subscriptionLimit: flags.subscriptionLimit,
    traceSizeLimit: flags.traceSizeLimit,
    mineLimit: flags.mineLimit,
    traceTimeout: flags.traceTimeout,
    batchTraceTimeout: flags.batchTraceTimeout,
    stateLimit: flags.stateLimit,
    wsBufferLimit: flags.wsBufferLimit,
  }
  // A fork takes its remote's chain id unless --chain-id is given.
  if (flags.chainId !== undefined || flags.forkUrl === undefined) options.chainId = flags.chainId ?? 12345
  if (flags.forkUrl !== undefined) {
    options.fork = { url: flags.forkUrl }
    if (flags.forkRestUrl !== undefined) options.fork.restUrl = flags.forkRestUrl
    if (flags.forkBlockNumber !== undefined) options.fork.blockNumber = flags.forkBlockNumber
    if (flags.forkCache !== undefined) options.fork.cache = flags.forkCache
  }
  if (flags.timestamp !== undefined) options.genesisTimestamp = flags.timestamp
  if (flags.bookkeeperKey !== undefined) options.bookkeeperKey = flags.bookkeeperKey
  if (flags.unboundGas !== undefined) options.unboundGas = flags.unboundGas === true ? {} : { deadline: flags.unboundGas }
  // createDevnet funds accounts it derives with the default balance; another balance takes them as explicit accounts.
  options.accounts =
    flags.balance === DEFAULT_BALANCE
      ? flags.accounts
      : (await deriveDevKeys(flags.accounts, options.mnemonic)).map((k) => ({ privateKey: k.privateKey, main: flags.balance * MAIN_UNIT, gas: flags.balance * GAS_UNIT }))
  return options
}

/** The listen options the flags ask for (without `log`, which the CLI adds). */
export function listenOptionsOf(flags: CliFlags): ListenOptions {
  return {
    host: flags.host,
    rpcPort: flags.port ?? flags.rpcport,
    restPort: flags.restport,
    rest: flags.rest,
    vhosts: flags.vhosts,
    cors: flags.cors,
    explorer: flags.explorer && flags.artifacts !== undefined ? { artifacts: flags.artifacts } : flags.explorer,
  }
}
