/**
 * The public types of a devnet: what createDevnet resolves to (Devnet), its accounts,
 * the EIP-1193 request shape, the REST client and the URLs of `listen()`.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import type { DualnetRpcSchema, RpcMethodName, RpcParamsArgument, RpcRequest, RpcResult } from '../rpc/schema.ts'
import type { ForkOptions } from '../fork/connect.ts'
import type { BalanceChange } from '../controls/controls.ts'
import type { DevnetTime } from '../controls/time.ts'
import type { StateDocument } from '../persistence/stateDocument.ts'
import type { ListenOptions } from '../options/types.ts'
import type { DualnetRestSchema, RestEnvelope, RestPathArgument, RestResult } from '../rest/schema.ts'
import type { Hex } from '../util/hex.ts'

/** A funded dev account. */
export interface DevAccount {
  /**
   * 0x address, EIP-55 checksummed (`0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266`), as
   * Anvil and Hardhat print it and as viem and ethers decode addresses, so
   * `expect(decoded.from).toBe(account.address)` holds. Any case is accepted wherever
   * the devnet takes an address.
   */
  address: Hex
  /**
   * The same address in lower case, as the JSON-RPC answers render addresses
   * (`eth_accounts`, a receipt's `from`, a log's `address`): compare raw JSON-RPC
   * results with this one.
   */
  addressLower: Hex
  /** The same 20 bytes as a Base58 address (reference §3). */
  base58: string
  /** secp256k1 private key, 0x-hex. */
  privateKey: Hex
}

/** A funded native dev account (P-256 key, as the chain's SDK signs native transactions). */
export interface NativeDevAccount {
  /** Base58 address (reference §3). */
  base58: string
  /** The same 20 bytes as a 0x address (what eth_getBalance takes). */
  address: Hex
  /** 32-byte P-256 private key, 0x-hex (`new Crypto.PrivateKey(privateKey.slice(2))` in the SDK). */
  privateKey: Hex
  /** 33-byte compressed public key, 0x-hex. */
  publicKey: Hex
}

/** An EIP-1193 request of any method, unchecked (what EIP-1193 callers such as ethers' BrowserProvider send). */
export interface RequestArguments {
  readonly method: string
  readonly params?: readonly unknown[] | object
}

/** URLs of the servers started by `listen()`. */
export interface DevnetUrls {
  /** JSON-RPC endpoint, e.g. `http://127.0.0.1:54321`. */
  rpcUrl: string
  /** REST base URL (no trailing slash), e.g. `http://127.0.0.1:54322`; paths start with /api/v1. Absent with `rest: false`. */
  restUrl?: string
  /** The explorer page, e.g. `http://127.0.0.1:54321/explorer`; present with the listen option `explorer` (`true` or `{ artifacts }`). */
  explorerUrl?: string
}

/**
 * The REST interface by function call; both resolve to the envelope, and throw
 * RestNotFoundError where the node answers 404. Typed per route by
 * {@link DualnetRestSchema}: `get('/api/v1/block/height')` resolves to
 * `RestEnvelope<number>`, `` get(`/api/v1/balancev2/${base58}`) `` to
 * `RestEnvelope<RestBalance>`, `?raw=1` to the raw hex string. A literal or template
 * path no route serves does not compile; a path typed only as `string` is taken and
 * its Result is `unknown` (docs/api.md).
 */
export interface RestClient {
  /** GET `path` (with an optional query string, e.g. `?raw=1`). */
  get<P extends string>(path: RestPathArgument<'GET', P>): Promise<RestEnvelope<RestResult<'GET', P>>>
  /** POST `body` (an object is sent as JSON, a string as is) to `path`, e.g. `/api/v1/transaction` with `{ Data: rawHex }`. */
  post<P extends string>(path: RestPathArgument<'POST', P>, body: unknown): Promise<RestEnvelope<RestResult<'POST', P>>>
}

/** A REST path and method no route serves (the node's HTTP 404). */
export class RestNotFoundError extends DualnetError {
  override name = 'RestNotFoundError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_REST_NOT_FOUND'
  readonly status = 404
}

/** A running devnet. */
export interface Devnet {
  /** Funded dev accounts, in eth_accounts order. */
  readonly accounts: readonly DevAccount[]
  /** Funded native dev accounts (P-256 keys), each with the same balances as the EVM dev accounts. */
  readonly nativeAccounts: readonly NativeDevAccount[]
  /** EIP-155 chain id. */
  readonly chainId: number
  /**
   * Calls a JSON-RPC method without JSON encoding. Resolves to the result; throws
   * {@link RpcError} with `code`, `message` and `data` as the server would answer.
   * Typed per method by {@link DualnetRpcSchema}: an unknown name or wrong params do
   * not compile, and the result has the method's type (docs/api.md). For a method
   * outside the schema, or deliberately malformed params, use {@link rpcUntyped}.
   */
  rpc<M extends RpcMethodName>(method: M, ...params: RpcParamsArgument<M>): Promise<RpcResult<M>>
  /** {@link rpc} without the schema's types: any method name and params, an `unknown` result. */
  rpcUntyped(method: string, params?: readonly unknown[] | object): Promise<unknown>
  /** The native REST interface by function call (spec: REST endpoints). */
  readonly rest: RestClient
  /**
   * EIP-1193 `request`, for ethers' BrowserProvider, viem's custom transport and
   * web3.js; typed per method as viem's `EIP1193RequestFn<DualnetRpcSchema>`.
   */
  request<M extends RpcMethodName>(args: RpcRequest<M>): Promise<RpcResult<M>>
  /** Starts the JSON-RPC and REST servers on ephemeral loopback ports (once; later calls return the same URLs). */
  listen(options?: ListenOptions): Promise<DevnetUrls>
  /**
   * Mines `count` blocks (default 1), each with every pending transaction executable
   * at that point; with `interval` the timestamps after the first are that many
   * seconds apart. Throws `InvalidControlError` for a negative count or interval.
   */
  mine(count?: number, options?: { interval?: number }): Promise<void>
  /** Takes a snapshot of everything observable on both surfaces; O(1). Resolves to its id (`0x1`, `0x2`, …). */
  snapshot(): Promise<string>
  /**
   * Restores snapshot `id` in O(changes since). Resolves to false for an unknown id.
   * By default the id and all later ones are invalidated (Hardhat's evm_revert);
   * `{ keep: true }` keeps this one for further reverts (later ones still go).
   */
  revert(id: string, options?: { keep?: boolean }): Promise<boolean>
  /**
   * Records a gas measurement under `name` in the gas snapshot file (option
   * `gasSnapshot`, default file `.gas-snapshot.json`; docs/gas-snapshots.md) and resolves
   * to the gas: of the mined transaction `measured` hashes (its receipt's `gasUsed`), or
   * of a receipt (its `gasUsed`: viem's and ethers' bigint or a hex quantity). In check
   * mode, rejects with GasSnapshotMismatchError when the gas moved from the file's by more
   * than the tolerance or the file lacks the name; InvalidControlError for a transaction
   * the devnet has not mined.
   */
  gasSnapshot(name: string, measured: Hex | { readonly gasUsed: bigint | Hex }): Promise<bigint>
  /**
   * Moves the clock forward by `seconds` (whole, non-negative), as evm_increaseTime:
   * an offset on the clock (the wall clock by default), not on the latest block, so
   * after automined blocks that ran ahead of the clock the next block may be fewer
   * seconds after the latest (docs/controls.md). Resolves to the total offset in seconds.
   */
  increaseTime(seconds: number): Promise<number>
  /**
   * Time counted from the latest block, as hardhat-network-helpers' `time`:
   * `increase(seconds)` and `increaseTo(timestamp)` mine a block at exactly the latest
   * block's timestamp + seconds, or at that timestamp; `latest()`, `latestBlock()`
   * (docs/controls.md).
   */
  readonly time: DevnetTime
  /** Fixes the next block's timestamp (Unix seconds); must be later than the latest block's. */
  setNextBlockTimestamp(timestamp: number): Promise<void>
  /** Sets the chain's current time (Unix seconds); blocks still never precede their parent. */
  setTime(timestamp: number): Promise<void>
  /** Turns automine on or off; turning it on mines what is executable in the pool. */
  setAutomine(on: boolean): Promise<void>
  /** Mines a block every `ms` milliseconds; 0 stops. */
  setIntervalMining(ms: number): Promise<void>
  /** Sets balances of an address in either rendering: `main` in 1e-9 units (v2), `gas` in wei. */
  setBalance(address: string, balances: BalanceChange): Promise<void>
  /** Sets the EVM nonce of an address. */
  setNonce(address: string, nonce: bigint | number): Promise<void>
  /** Sets the EVM code (0x-hex) of an address. */
  setCode(address: string, code: string): Promise<void>
  /** Sets a storage slot (0x-hex, up to 32 bytes) of an address to a 32-byte value (0x-hex). */
  setStorageAt(address: string, slot: string, value: string): Promise<void>
  /** COINBASE of later blocks and eth_coinbase (hardhat_setCoinbase). */
  setCoinbase(address: string): Promise<void>
  /** What GASLIMIT reads in later blocks, 1 to 2^64 - 1 (evm_setBlockGasLimit); the 6,000,000 per-transaction cap stays. */
  setBlockGasLimit(gasLimit: bigint | number): Promise<void>
  /** The next block's base fee in wei (hardhat_setNextBlockBaseFeePerGas); `hardfork` london or later only. */
  setNextBlockBaseFeePerGas(baseFee: bigint | number): Promise<void>
  /** The next block's PREVRANDAO, 32 bytes as 0x-hex (hardhat_setPrevRandao); `hardfork` paris or later only. */
  setPrevRandao(prevRandao: string): Promise<void>
  /** Lets eth_sendTransaction send as `address` without its key. */
  impersonateAccount(address: string): Promise<void>
  /** Ends an impersonation. */
  stopImpersonatingAccount(address: string): Promise<void>
  /** Whether the chain was resumed from the `db` option's database (false: a new genesis). */
  readonly resumed: boolean
  /**
   * The head state as a versioned JSON document (README "State that lasts"): accounts
   * with both balances, nonces, code, storage, unbound-gas offsets, and allowances, as
   * of the latest block, whose number, timestamp and hash it records.
   */
  dumpState(): Promise<StateDocument>
  /**
   * Writes a state document (ours, or an Anvil state) into the latest state, as
   * anvil_loadState does: listed accounts, slots and allowances replace what is
   * there, the rest stays; one step, persisted, undone by reverting a snapshot taken
   * before. Throws PersistenceError (UnsupportedVersionError for another version)
   * naming what is wrong, and then changes nothing.
   */
  loadState(doc: unknown): Promise<void>
  /**
   * Back to a fresh genesis built from the options the devnet was created with
   * (hardhat_reset / anvil_reset without params): new genesis timestamp, dev
   * balances, automine and interval mining as created. Snapshots, filters and
   * impersonations are dropped; subscriptions stay and are told the new head.
   * `{ fork }`: a fork of that remote instead (Hardhat's `forking`), or with `null` a
   * plain devnet; the chain id becomes the remote's (or `chainId`'s). Throws as
   * createDevnet's `fork` option does, and then the devnet stays as it was.
   */
  reset(options?: { fork?: ForkOptions | null }): Promise<void>
  /**
   * EIP-1193 events: `'message'` delivers `{ type: 'eth_subscription', data: { subscription, result } }`
   * for subscriptions made through `request` / `rpc` (eth_subscribe); `'disconnect'` fires on close.
   */
  on(event: 'message' | 'disconnect', listener: (...args: any[]) => void): this
  /** Removes an EIP-1193 event listener. */
  removeListener(event: 'message' | 'disconnect', listener: (...args: any[]) => void): this
  /**
   * Stops the servers (WebSockets get a normal close frame, 1000) and closes the
   * store; in-process subscriptions end. Running traces and eth_call /
   * eth_estimateGas simulations are stopped within a few ms, not awaited (a mined
   * transaction finishes). Afterwards every call rejects with RpcError 4900 (EIP-1193
   * disconnected). In gas snapshot check mode (option `gasSnapshot.check`), rejects
   * after closing with GasSnapshotMismatchError when measurements failed the check,
   * listing each in its `details`.
   */
  close(): Promise<void>
}
