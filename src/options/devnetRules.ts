/**
 * The rule of every createDevnet option (DevnetOptions, src/options/types.ts): what it
 * takes, as its docstring states. The table's type lists every key of DevnetOptions,
 * so an option added there without a rule here does not compile.
 */
import { GAS_TOTAL_SUPPLY, MAIN_TOTAL_SUPPLY } from '../core/constants.ts'
import type { DevnetOptions } from './types.ts'
import { HARDFORKS } from './hardforks.ts'
import { MNEMONIC_ALLOWED } from './mnemonic.ts'
import { FORK_RULE } from './forkRules.ts'
import { boolean, either, func, grouped, listOf, objectOf, oneOf, privateKeyOf, refuse, type Rule, wholeBigint, wholeNumber } from './rules.ts'

/** Orders of the curves (SEC 2, §2.4.1 secp256k1 and §2.7.2 secp256r1): a private key is in [1, n - 1]. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n
/** Largest block-header timestamp: the header's Timestamp is a u32 (reference §2.1). */
export const U32_MAX = 2 ** 32 - 1
/** Longest timer Node keeps (setTimeout, setInterval): 2^31 - 1 ms; limits and timeouts stay under it too. */
const I32_MAX = 2 ** 31 - 1
/** Most dev accounts of either kind (each is derived and funded at start). */
const MAX_ACCOUNTS = 10_000
/** Longest block time and clock step: a day. */
export const DAY = 86_400

/** `accounts` as a count (the CLI's `--accounts`). */
export const ACCOUNT_COUNT = wholeNumber(0, MAX_ACCOUNTS)

/** The limit options: a positive whole number each. */
const limit = wholeNumber(1, I32_MAX)

/** `blockTime`: seconds, whole milliseconds (the interval timer's unit). */
const blockTime: Rule<number> = {
  allowed: `a number of seconds from 0 to ${grouped(DAY)}, in whole milliseconds (0: off)`,
  check(value, path) {
    const n = typeof value === 'bigint' && value >= 0n && value <= BigInt(DAY) ? Number(value) : value
    // 0.001 s steps; n * 1000 may be off by a rounding error (1.1 * 1000 = 1100.0000000000002).
    if (typeof n !== 'number' || !(n >= 0 && n <= DAY) || Math.abs(n * 1000 - Math.round(n * 1000)) > 1e-6) refuse(blockTime, path, value)
    return n
  },
}

/** `mnemonic` here: a string; its words and checksum are checked by checkMnemonic (asynchronously: the word list loads on demand). */
const mnemonic: Rule<string> = {
  allowed: MNEMONIC_ALLOWED,
  check(value, path) {
    if (typeof value !== 'string') refuse(mnemonic, path, value)
    return value
  },
}

/** `clock`: 'wall', 'frozen' or `{ step }`. */
const clock = either<unknown>(oneOf(['wall', 'frozen']), objectOf({ step: wholeNumber(1, DAY) }, `{ step } with step a whole number of seconds from 1 to ${grouped(DAY)}`))

/** A file or directory path: a non-empty string without NUL. */
const path: Rule<string> = {
  allowed: 'a non-empty path',
  check(value, at) {
    if (typeof value !== 'string' || value === '' || value.includes('\0')) refuse(path, at, value)
    return value
  },
}

/** `gasSnapshot.tolerance`: a percentage, a finite number from 0 to 1,000,000. */
const percentage: Rule<number> = {
  allowed: 'a percentage from 0 to 1,000,000',
  check(value, at) {
    if (typeof value !== 'number' || !(value >= 0 && value <= 1_000_000)) refuse(percentage, at, value)
    return value
  },
}

/** `db`: what LedgerStore calls of an abstract-level database. */
const db: Rule<unknown> = {
  allowed: 'an abstract-level database (memory-level, classic-level, ...)',
  check(value, path) {
    const methods = ['open', 'close', 'get', 'batch', 'iterator'] as const
    if (typeof value !== 'object' || value === null || methods.some((m) => typeof (value as Record<string, unknown>)[m] !== 'function')) refuse(db, path, value)
    return value
  },
}

/** `state`: an object; its contents are checked by the state-document parser (PersistenceError) before anything is written. */
const state: Rule<unknown> = {
  allowed: 'a state document: an object (devnet.dumpState(), a decoded anvil_dumpState result, or an Anvil state)',
  check(value, path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(state, path, value)
    return value
  },
}

/** One explicit dev account. */
const accountSpec = objectOf(
  {
    privateKey: privateKeyOf('secp256k1', SECP256K1_ORDER),
    main: wholeBigint(0n, MAIN_TOTAL_SUPPLY),
    gas: wholeBigint(0n, GAS_TOTAL_SUPPLY),
  },
  '{ privateKey, main?, gas? }',
)

/** Every createDevnet option's rule. */
export const DEVNET_OPTION_RULES = {
  chainId: wholeNumber(1, Number.MAX_SAFE_INTEGER),
  hardfork: oneOf(HARDFORKS),
  accounts: either<unknown>(ACCOUNT_COUNT, listOf(accountSpec, 0, MAX_ACCOUNTS, `a list of at most ${grouped(MAX_ACCOUNTS)} accounts { privateKey, main?, gas? }`)),
  nativeAccounts: wholeNumber(0, MAX_ACCOUNTS),
  mnemonic,
  automine: boolean,
  blockTime,
  genesisTimestamp: wholeNumber(0, U32_MAX),
  clock,
  db,
  state,
  unboundGas: objectOf({ deadline: wholeNumber(1, U32_MAX) }, `{ deadline? } with deadline a whole number of seconds from 1 to ${grouped(U32_MAX)}`),
  fork: FORK_RULE,
  minGasPrice: wholeBigint(0n, 2n ** 64n - 1n),
  clientVersion: oneOf(['hardhat', 'node']),
  profile: oneOf(['node', 'ethereum']),
  blockContext: oneOf(['node', 'ethereum']),
  emptyStorage: oneOf(['node', 'ethereum']),
  stateRoot: oneOf(['zero', 'merkle']),
  bookkeeperKey: privateKeyOf('P-256', P256_ORDER),
  bodyLimit: limit,
  batchLimit: limit,
  batchResponseLimit: limit,
  hexLimit: limit,
  jsonDepthLimit: limit,
  logsBlockRange: limit,
  logsResultLimit: limit,
  filterLimit: limit,
  subscriptionLimit: limit,
  traceSizeLimit: limit,
  traceTimeout: limit,
  batchTraceTimeout: limit,
  stateLimit: limit,
  wsBufferLimit: limit,
  mineLimit: limit,
  console: either<unknown>(boolean, func('a function of one line')),
  coverage: objectOf(
    { artifacts: either<unknown>(path, listOf(path, 1, 100, 'a list of 1 to 100 paths')), dir: path },
    '{ artifacts?, dir? } with artifacts a path or a list of paths (project, build-info directory or solc standard-JSON output) and dir a directory',
  ),
  gasReport: objectOf(
    { artifacts: either<unknown>(path, listOf(path, 1, 100, 'a list of 1 to 100 paths')), dir: path, print: boolean },
    '{ artifacts?, dir?, print? } with artifacts a path or a list of paths (project, build-info directory or solc standard-JSON output), dir a directory and print true or false',
  ),
  gasSnapshot: objectOf({ file: path, check: boolean, tolerance: percentage }, '{ file?, check?, tolerance? } with file a path, check a boolean and tolerance a percentage from 0 to 1,000,000'),
} satisfies { readonly [K in keyof Required<DevnetOptions>]: Rule }
