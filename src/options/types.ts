/**
 * Options of createDevnet (design/ARCHITECTURE.md, Public API). Every option is
 * optional; the defaults make a solo node of the real chain. Each is checked before
 * anything starts (src/options/): an unknown option or a value it cannot take throws
 * InvalidOptionError naming the option, the value and what is allowed. Whole numbers
 * may be given as numbers or bigints.
 */
import type { Hex } from '../util/hex.ts'
import type { LevelDatabase } from '../persistence/database.ts'
import type { ClockMode } from '../chain/clock.ts'
import type { BlockContext } from '../chain/chain.ts'
import type { ClientVersionOption } from '../rpc/methods/web3_clientVersion.ts'
import type { Hardfork } from './hardforks.ts'
import type { AnswerProfile, EmptyStorageAnswer } from '../core/answers.ts'

export type { Hardfork, GasSnapshotOption }
import type { ForkOptions } from '../fork/connect.ts'
import type { GasSnapshotOption } from '../controls/gasSnapshots.ts'

/** A dev account given explicitly. Balances: `main` in whole tokens, `gas` in whole tokens (default 10,000 each). */
export interface AccountSpec {
  /** secp256k1 private key, 0x-hex (32 bytes), in [1, n - 1]; no two accounts share one. */
  privateKey: Hex
  /** Main-token balance in v2 units (1e-9); default 10,000 tokens. The accounts' balances and the native accounts' fit in the supply (1e9 tokens). */
  main?: bigint | number
  /** Gas-token balance in wei (1e-18); default 10,000 tokens. All together fit in the supply (1e9 tokens). */
  gas?: bigint | number
}

/** Options of {@link createDevnet}. */
export interface DevnetOptions {
  /** EIP-155 chain id, 1 to 2^53 - 1; default 12345, the solo node's (reference §0). */
  chainId?: number | bigint
  /**
   * EVM hardfork (@ethereumjs/common name, lower case): `istanbul` (default, the
   * chain's, reference §6.3), `berlin`, `london`, `paris`, `shanghai`, `cancun` or `prague`.
   */
  hardfork?: Hardfork
  /** Number of funded dev accounts from `mnemonic`, 1 to 10,000 (default 10), or explicit accounts (at most 10,000). */
  accounts?: number | AccountSpec[]
  /** Number of funded native dev accounts with P-256 keys, 0 to 10,000 (default 5), for native transactions. */
  nativeAccounts?: number
  /**
   * Mnemonic of the dev accounts: a BIP-39 mnemonic (12 to 24 words of the English
   * list, one space apart, valid checksum); default Hardhat's and Anvil's "test test … junk".
   */
  mnemonic?: string
  /** Mine one block per accepted transaction; default true. */
  automine?: boolean
  /** Seconds between interval-mined blocks (mined whether or not transactions wait), 0 to 86,400 in whole milliseconds; 0 or absent: off. */
  blockTime?: number
  /** Timestamp of block 0, Unix seconds, 0 to 2^32 - 1 (the header's u32); default now. */
  genesisTimestamp?: number | bigint
  /**
   * How block time advances: `'wall'` (default) follows the wall clock; `'frozen'`
   * starts at the genesis time and moves only by time controls (each block is its
   * parent + 1 s otherwise); `{ step }` stamps each block `step` seconds after its
   * parent (`step` 1 to 86,400). The last two make repeated runs produce identical blocks and hashes.
   */
  clock?: ClockMode
  /**
   * Any abstract-level database with string keys and values (memory-level,
   * classic-level, …; see {@link LevelDatabase} for what dualnet calls of it). Empty:
   * a new chain is written to it, each change one atomic batch (blocks, execution
   * records, state versions, clock). Holding a chain: that chain is resumed exactly
   * (blocks, receipts, state at every height, clock), after checking that `chainId`,
   * `hardfork`, `bookkeeperKey` and (when given) `unboundGas` are the ones it was
   * made with; otherwise createDevnet throws ChainMismatchError naming the
   * difference. A database that outlives the process (classic-level) makes every
   * answer wait until what it reports is on disk. Closed by `close()`. Default: none;
   * the ledger lives in memory only and nothing is serialised.
   */
  db?: LevelDatabase
  /**
   * A state document (`devnet.dumpState()`, an anvil_dumpState result decoded, or an
   * Anvil state): the new genesis holds it, over the dev allocations; its head
   * timestamp is the genesis timestamp unless `genesisTimestamp` is given. Refused
   * with a `db` that already holds a chain.
   */
  state?: unknown
  /**
   * Unbound-gas accrual (reference §4.2). Off by default, as on a solo node (deadline 0).
   * On: main-token holders accrue gas by the real schedule, timed from the genesis
   * timestamp, until `deadline` seconds after it (default: the whole 18-interval
   * schedule); a main-token transfer moves the accrued gas into the holder's claimable
   * allowance (get_unboundgas), and the unallocated gas supply sits at the main-token
   * contract to pay claims. `deadline`: 1 to 2^32 - 1 seconds.
   */
  unboundGas?: { deadline?: number | bigint }
  /** Pool minimum gas price in whole gwei, 0 to 2^64 - 1; default 0, as on a solo node (reference §0). */
  minGasPrice?: bigint | number
  /**
   * Fork a live node (docs/fork.md): `{ url, restUrl?, blockNumber?, cache?, historyLimit?, remote? }`.
   * The devnet takes the remote's chain id (unless `chainId` is given), net_version and,
   * with `restUrl`, REST network id; its blocks continue from the fork block (default:
   * the remote's latest), whose hash is their first parent; EVM accounts (balance,
   * nonce, code) and storage slots, and with `restUrl` the native state (main-token
   * balances, allowances, native storage, contract states), are fetched from the
   * remote on first read and kept, and local writes overlay them. The dev accounts are
   * funded over the remote's state. With `db` the database keeps the fork and its
   * fetched values (resumed without the remote). Not combinable with `state` yet.
   * Throws ForkOptionError for a malformed option or a block the remote cannot
   * serve, ForkRemoteError when the remote does not answer.
   */
  fork?: ForkOptions
  /**
   * What web3_clientVersion answers. `'hardhat'` (default):
   * `HardhatNetwork/dualnet/v<version>`, the identification that
   * @nomicfoundation/hardhat-network-helpers (1.x and 3.x) and OpenZeppelin's upgrades
   * plugins require of a development network. `'node'`: the real node's
   * `Ontology-v<version>-dualnet`; those tools then refuse the devnet (every
   * network helper throws "can only be used with Hardhat Network").
   */
  clientVersion?: ClientVersionOption
  /**
   * Whose answers to give where go-ethereum, Hardhat and Anvil answer otherwise than
   * the real node: `'node'` (default) or `'ethereum'`, which sets every switch of the
   * profile at once (`blockContext`, `emptyStorage`; docs/differences.md lists them).
   * A switch given alone wins over the profile. The Hardhat plugin's default is
   * `'ethereum'`.
   */
  profile?: AnswerProfile
  /**
   * What eth_getStorageAt answers for a slot that holds nothing (never set, or set and
   * cleared): `'node'`, the real node's `"0x"` (its raw stored bytes, reference §6.2);
   * `'ethereum'`, 32 zero bytes, as go-ethereum, Hardhat and Anvil answer. Default: the
   * `profile`'s.
   */
  emptyStorage?: EmptyStorageAnswer
  /**
   * The `stateRoot` of the EVM view's blocks. `'zero'` (default), the real node's zero
   * hash (it keeps no state trie, reference §6.3), and eth_getProof is refused as the
   * node refuses it. `'merkle'`: the Ethereum state trie (accounts with nonce, gas-token
   * balance in wei, storage root, code hash; a storage trie per account) is computed per
   * block when asked (@ethereumjs/mpt, cached), each block's `stateRoot` is its root, and
   * eth_getProof answers EIP-1186 proofs that verify against it. Refused with `fork`: a
   * fork cannot know the remote's trie (docs/options.md).
   */
  stateRoot?: 'zero' | 'merkle'
  /**
   * The block environment (NUMBER, TIMESTAMP) of eth_call, eth_estimateGas and
   * debug_traceCall at a block (default: the `profile`'s). `'node'`, the real node's: a call at block N
   * runs with NUMBER N and TIMESTAMP N's timestamp + 1; an estimate on the latest
   * state runs in the next block. `'ethereum'`, go-ethereum's, Hardhat's and Anvil's:
   * a call or estimate at block N runs with N's own number and timestamp. In both,
   * `pending` and an estimate without a block run in the next block: number
   * height + 1 and the timestamp evm_setNextBlockTimestamp, evm_increaseTime, a
   * block-timestamp interval or the clock will give it.
   */
  blockContext?: BlockContext
  /** P-256 private key of the block-signing bookkeeper (0x and 64 hex digits, in [1, n - 1]); default a fixed devnet key. */
  bookkeeperKey?: Hex
  /*
   * The limits below (bodyLimit to mineLimit) are each a whole number from 1 to
   * 2^31 - 1 (the longest timer Node keeps, for the timeouts).
   */
  /**
   * Largest request body either server accepts, in bytes; default 5 MiB (reference §6.1).
   * Above it: HTTP 413 with a JSON-RPC -32600 error, or a REST envelope 41003.
   */
  bodyLimit?: number
  /** Most requests in one JSON-RPC batch; default 1,000 (go-ethereum's). Above it: -32600 `batch too large`. */
  batchLimit?: number
  /** Bytes of answers after which a batch's remaining requests get -32003 `response too large` without running; default 25,000,000 (go-ethereum's). */
  batchResponseLimit?: number
  /** Longest string in JSON-RPC params, in hex digits; default 2 Mi (1 MiB of DATA). Above it: -32602. */
  hexLimit?: number
  /** Deepest nesting of arrays and objects in a request (body, frame or params); default 100. Above it: -32700 / -32602 / REST 41003. */
  jsonDepthLimit?: number
  /** Widest span toBlock - fromBlock of eth_getLogs and eth_getFilterLogs; default 100,000 (the real node's). Above it: -32000. */
  logsBlockRange?: number
  /** Most logs one log query or filter poll answers; default 10,000. Above it: -32000 `query returned more than N results`. */
  logsResultLimit?: number
  /** Most installed polling filters; default 10,000. Above it: -32000 `too many filters`. */
  filterLimit?: number
  /** Most live eth_subscribe subscriptions, all connections together; default 10,000. Above it: -32000 `too many subscriptions`. */
  subscriptionLimit?: number
  /** Largest trace (debug_traceTransaction, debug_traceCall, either tracer), in bytes of JSON; default 128 MiB. Above it: -32000 `trace larger than N bytes`. */
  traceSizeLimit?: number
  /**
   * Longest one trace runs, in ms, unless its tracer option `timeout` (a Go duration,
   * "10s") says otherwise; default 5,000 (go-ethereum's). Past it: -32000 `execution timeout: …`.
   */
  traceTimeout?: number
  /** Milliseconds the trace calls of one JSON-RPC batch may run in all; default 10,000. Past it: -32000 `execution timeout: …`, and later traces of the batch do not run. */
  batchTraceTimeout?: number
  /**
   * Largest state document anvil_loadState reads, in bytes of JSON after inflating a
   * gzipped one; default 64 MiB. Above it: -32602 `… larger than N bytes (option stateLimit)`.
   */
  stateLimit?: number
  /**
   * Bytes of answers and notifications a WebSocket client may leave unread before the
   * devnet closes its socket; default 16 MiB. Past it the client's subscriptions end
   * at once and it gets the close frame 1008 (policy violation) with the reason
   * `client not reading: more than N bytes unsent (option wsBufferLimit)`, after what
   * it had not read; a client that reads nothing for 30 s more is cut off.
   */
  wsBufferLimit?: number
  /** Most blocks one mine call (hardhat_mine, anvil_mine, `devnet.mine`) may add; default 1,000,000. Above it: -32000 `cannot mine N blocks in one call`. */
  mineLimit?: number
  /**
   * Solidity console.log (hardhat/console.sol, forge-std console/console2): the lines
   * of mined transactions, eth_call and failed eth_estimateGas, formatted and chosen as
   * Hardhat prints them. Default (`true`): each line to stdout; `false`: nothing is
   * captured (no cost at all); a function: receives each line.
   */
  console?: boolean | ((line: string) => void)
  /**
   * Solidity coverage measured by the devnet (docs/coverage.md): the EVM records the
   * program counters and JUMPI outcomes of every execution (mined transactions,
   * eth_call, eth_estimateGas, constructors), mapped through the compiler's source maps.
   * `artifacts`: a Hardhat or Foundry project directory, a `build-info` directory, or a
   * solc standard-JSON output file (or a list of these); `dir`: where `devnet.close()`
   * writes the reports (`lcov.info`, `coverage-final.json`, HTML), default none
   * (take them with `dualnet_coverage`). Absent: nothing is recorded, at no cost.
   */
  coverage?: CoverageOption
  /**
   * The gas report (docs/coverage.md "Gas report"): per contract and function the
   * calls of mined transactions and of internal calls with min / median / max gas,
   * and each contract's deployments and code size, named through the compiler output
   * in `artifacts` (as `coverage`'s). `devnet.close()` prints it as a table (`print`,
   * default true) and writes `gas-report.json` and `gas-report.md` into `dir` (default
   * none). Absent: nothing is recorded, and the EVM carries no listener.
   */
  gasReport?: GasReportOption
  /**
   * Gas snapshots of `devnet.gasSnapshot(name, txHash | receipt)` and
   * `dualnet_gasSnapshot` (docs/gas-snapshots.md): `file`, default `.gas-snapshot.json`;
   * `check`: compare each measurement with the file and refuse a change beyond
   * `tolerance` percent (default 0), writing nothing. Without check mode each
   * measurement is merged into the file at once.
   */
  gasSnapshot?: GasSnapshotOption
}

/** The `gasReport` option of createDevnet. */
export interface GasReportOption {
  /** Where the compiler output is, as {@link CoverageOption.artifacts}. */
  artifacts?: string | readonly string[]
  /** Directory of `gas-report.json` and `gas-report.md`, written on `devnet.close()`; default: none. */
  dir?: string
  /** Print the table to stdout on `devnet.close()`; default true. */
  print?: boolean
}

/** The `coverage` option of createDevnet. */
export interface CoverageOption {
  /** Where the compiler output is: project directory, build-info directory or solc standard-JSON output file; several as a list. */
  artifacts?: string | readonly string[]
  /** Directory the reports are written to on `devnet.close()`; default: none. */
  dir?: string
}

/**
 * Options of `devnet.listen()`, checked before any port is bound: InvalidOptionError
 * naming the option otherwise.
 */
export interface ListenOptions {
  /** Interface to bind (an address or a name, no spaces); default `127.0.0.1`. */
  host?: string
  /** JSON-RPC port, 0 to 65,535; default 0 (an ephemeral port). */
  rpcPort?: number
  /** REST port, 0 to 65,535; default 0 (an ephemeral port). */
  restPort?: number
  /** Start the REST server; default true (the CLI's `--rest` decides). */
  rest?: boolean
  /**
   * Called with one line per answered request: JSON-RPC `rpc <method> <ms>ms`, a batch
   * `rpc batch(<n>) <ms>ms`, an error appended as `error <code> <message>` (a batch:
   * `<k> errors, first <code> <message>`); REST `rest <method> <path> <ms>ms <Action>
   * Error <code>` (and the Desc when the code is not 0). An HTTP status other than 200
   * comes before the time; a request that is no JSON-RPC call shows its method and path.
   */
  log?: (line: string) => void
  /**
   * Origins the JSON-RPC server allows (CORS): `'*'` (default, as go-ethereum's
   * `--http.corsdomain "*"`, Hardhat and Anvil), one origin or a list, or `false` for
   * no CORS headers. The REST server always sends the node's own headers (reference §1.1).
   * WebSocket upgrades that carry an Origin header (browsers always send one) must
   * carry one of these origins (`false`: none), as go-ethereum's `--ws.origins`;
   * refused with HTTP 403 and the reason.
   */
  cors?: string | readonly string[] | false
  /**
   * Host names both servers answer, as go-ethereum's `--http.vhosts`: default
   * `['localhost']`; `'*'` for any. IP addresses (`127.0.0.1`, `[::1]`, any other) and
   * requests without a Host header are always answered; the port is ignored. Another
   * name (a DNS-rebinding page's) gets HTTP 403: JSON-RPC and WebSocket upgrades in
   * plain text (`invalid host specified: …`), REST in the envelope (41003). A server
   * bound to a non-loopback interface and reached by a name needs that name here.
   * Anything but `'*'`, a name or a non-empty list of names: InvalidOptionError.
   */
  vhosts?: string | readonly string[]
  /**
   * Serve the explorer page (issue 37) at `/explorer` on the JSON-RPC server: both views
   * of the chain, read through the devnet's own JSON-RPC (and REST when it is on).
   * Default false; its code loads only when true or an object. The page obeys `vhosts`,
   * and its WebSocket needs its own origin among `cors` (the default `'*'` has it).
   * `{ artifacts }` (ExplorerOptions) also names the contracts it shows and decodes
   * their calls, events and errors; `true` is `{}`.
   */
  explorer?: boolean | ExplorerOptions
}

/** The explorer's options beyond `explorer: true` (docs/explorer.md, "Contract artifacts"). */
export interface ExplorerOptions {
  /**
   * The compiler output whose contracts the page names: a Hardhat 2 or 3 project (or
   * its `artifacts/`), a Foundry project (or its `out/`), a `build-info` directory, or
   * a solc standard-JSON output file; or a list of them. Each must exist when the devnet
   * listens (else InvalidOptionError naming `explorer.artifacts`); what they hold is read
   * when the page first asks and again when it changes, so a project compiled later is
   * found. Code is matched against the deployed bytecodes with immutables, library
   * addresses and the metadata trailer masked, as coverage matches (docs/coverage.md).
   */
  artifacts?: string | readonly string[]
}
