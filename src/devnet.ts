/**
 * createDevnet(): one ledger, its EVM, and the JSON-RPC surface, as function calls
 * and on a socket (design/ARCHITECTURE.md).
 *
 * Start-up loads only what the first request needs: fastify and the server plugins
 * are imported by `listen()`, dev keys of the default mnemonic come from a table,
 * key arithmetic runs on Node's native curves, and without a `db` option nothing is
 * persisted.
 */
import { EventEmitter } from 'node:events'
import type { FastifyInstance } from 'fastify'
import { createBookkeeper } from './chain/bookkeeper.ts'
import { Chain } from './chain/chain.ts'
import { Clock } from './chain/clock.ts'
import { DEV_ACCOUNT_GAS, DEV_ACCOUNT_MAIN, MAIN_TOKEN_ADDRESS, SOLO_CHAIN_ID, SOLO_NETWORK_ID } from './core/constants.ts'
import { UNBOUND_SCHEDULE_END } from './chain/unboundGas.ts'
import { addressOfPrivateKey, deriveDevKeys, DEFAULT_MNEMONIC } from './chain/devAccounts.ts'
import { nativeDevKey } from './chain/nativeDevAccounts.ts'
import { buildGenesis, type GenesisAllocation } from './chain/genesis.ts'
import { WorldState } from './state/worldState.ts'
import { LedgerStore } from './chain/store.ts'
import { openStoredChain } from './chain/persistence/resume.ts'
import type { StateDocument } from './chain/persistence/stateDocument.ts'
import { EvmExecutor } from './evm/executor.ts'
import { toBase58 } from './native/address.ts'
import type { DevnetOptions, ListenOptions } from './options.ts'
import { validateDevnetOptions, validateListenOptions, type ValidDevnetOptions } from './options/validate.ts'
import type { RpcContext, SigningAccount } from './rpc/context.ts'
import { callRpc } from './rpc/dispatch.ts'
import { RpcError } from './rpc/errors.ts'
import { FilterRegistry } from './rpc/filters.ts'
import { rpcLimits } from './rpc/limits.ts'
import { SubscriptionManager, type SubscriptionConnection } from './rpc/subscriptions.ts'
import { DevnetControls, type BalanceChange } from './controls/controls.ts'
import { devnetTime, type DevnetTime } from './controls/time.ts'
import type { RestContext } from './rest/context.ts'
import type { RestEnvelope } from './rest/router.ts'
import { fromHex, toHex, toHexRaw, type Hex } from './util/hex.ts'
import { NODE_VERSION } from './version.ts'
import { clientVersionString } from './rpc/methods/web3_clientVersion.ts'

/** State documents (the `state` option, dumpState, loadState) load on first use, off the start-up path. */
const stateDocuments = () => import('./chain/persistence/stateDocument.ts')

/** A funded dev account. */
export interface DevAccount {
  /** 0x address (EIP-55 checksummed is not applied: lower case, as JSON-RPC renders it). */
  address: Hex
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

/** An EIP-1193 request. */
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
}

/** The REST interface by function call; both resolve to the envelope, and throw RestNotFoundError where the node answers 404. */
export interface RestClient {
  get(path: string): Promise<RestEnvelope>
  post(path: string, body: unknown): Promise<RestEnvelope>
}

/** A REST path and method no route serves (the node's HTTP 404). */
export class RestNotFoundError extends Error {
  override name = 'RestNotFoundError'
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
  /** The ledger (blocks, transactions, state); read-only use outside the package. A reset replaces it: read it again afterwards. */
  readonly chain: Chain
  /**
   * Calls a JSON-RPC method without JSON encoding. Resolves to the result; throws
   * {@link RpcError} with `code`, `message` and `data` as the server would answer.
   */
  rpc(method: string, params?: readonly unknown[]): Promise<unknown>
  /** The native REST interface by function call (spec: REST endpoints). */
  readonly rest: RestClient
  /** EIP-1193 `request`, for ethers' BrowserProvider, viem's custom transport and web3.js. */
  request(args: RequestArguments): Promise<unknown>
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
   */
  reset(): Promise<void>
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
   * disconnected).
   */
  close(): Promise<void>
}

/** Default balance of each dev account: 10,000 of each token. */
const DEFAULT_MAIN = DEV_ACCOUNT_MAIN
const DEFAULT_GAS = DEV_ACCOUNT_GAS
/** Default JSON-RPC body limit: go-ethereum's 5 MiB (reference §6.1). */
const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024

/**
 * Creates a devnet. See {@link DevnetOptions} for the options and their defaults.
 * Throws InvalidOptionError (src/options/error.ts) for an unknown option or a value
 * an option cannot take, before anything is opened, derived or started.
 */
export async function createDevnet(given: DevnetOptions = {}): Promise<Devnet> {
  // Option errors first, before any database is opened.
  const options = await validateDevnetOptions(given)
  const chainId = options.chainId ?? SOLO_CHAIN_ID
  const clientVersion = clientVersionString(options.clientVersion)
  const keys = Array.isArray(options.accounts)
    ? options.accounts.map((a) => ({
        privateKey: a.privateKey,
        address: addressOfPrivateKey(a.privateKey),
        main: a.main ?? DEFAULT_MAIN,
        gas: a.gas ?? DEFAULT_GAS,
      }))
    : (await deriveDevKeys(options.accounts ?? 10, options.mnemonic ?? DEFAULT_MNEMONIC)).map((k) => ({
        privateKey: k.privateKey,
        address: k.address,
        main: DEFAULT_MAIN,
        gas: DEFAULT_GAS,
      }))
  const nativeKeys = Array.from({ length: options.nativeAccounts ?? 5 }, (_, i) => nativeDevKey(i))
  // No database unless the user gives one; one that holds a chain is resumed (chain/persistence/).
  const store = new LedgerStore(options.db)
  await store.open()
  const chain = await buildChain(options, keys, nativeKeys, store, true).catch(async (err: unknown) => {
    await store.abandon()
    throw err
  })

  const signers = new Map<string, SigningAccount>(keys.map((k) => [toHexRaw(k.address), { address: k.address, privateKey: k.privateKey }]))
  let instance: DevnetInstance | undefined
  const limits = rpcLimits(options)
  const context: Mutable<RpcContext> = {
    chain,
    signers,
    accountOrder: keys.map((k) => k.address),
    chainId,
    clientVersion,
    limits,
    filters: new FilterRegistry(limits),
    controls: new DevnetControls(chain, limits),
    subscriptions: new SubscriptionManager(chain),
    reset: () => instance!.reset(),
  }
  context.subscriptions.limits.total = limits.subscriptionLimit
  if (options.blockTime !== undefined && options.blockTime > 0) await context.controls.setIntervalMining(Math.round(options.blockTime * 1000))
  const restContext: Mutable<RestContext> = { chain, nodeVersion: NODE_VERSION, networkId: SOLO_NETWORK_ID }
  const nativeAccounts = nativeKeys.map((k) =>
    Object.freeze({ base58: toBase58(k.address), address: toHex(k.address), privateKey: k.privateKey, publicKey: k.publicKey }),
  )
  // A reset builds a fresh ledger from the same options, keys and store.
  const fresh = () => buildChain(options, keys, nativeKeys, store)
  instance = new DevnetInstance(context, restContext, keys, nativeAccounts, options.bodyLimit ?? DEFAULT_BODY_LIMIT, fresh, options.blockTime)
  return instance
}

/** Properties of `T` made writable: the contexts whose chain a reset replaces. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** A dev key with its genesis balances. */
interface FundedKey {
  privateKey: Hex
  address: Uint8Array
  main: bigint
  gas: bigint
}

/** The ledger of `options` at genesis: world state, executor and chain, the genesis block persisted into `store`. */
async function buildChain(
  options: ValidDevnetOptions,
  keys: readonly FundedKey[],
  nativeKeys: readonly { address: Uint8Array }[],
  store: LedgerStore,
  /** Resume the chain the database holds (createDevnet); a reset starts a new one over it. */
  resume = false,
): Promise<Chain> {
  const chainId = options.chainId ?? SOLO_CHAIN_ID
  const world = new WorldState()
  const bookkeeper = createBookkeeper(options.bookkeeperKey)
  const hardfork = options.hardfork ?? 'istanbul'
  const documents = options.state === undefined ? undefined : await stateDocuments()
  const state = documents?.parseStateDocument(options.state)
  const wantedUnbound = options.unboundGas === undefined ? undefined : { deadline: options.unboundGas.deadline ?? UNBOUND_SCHEDULE_END }
  const resumed = resume
    ? await openStoredChain(store, world, bookkeeper, { chainId, hardfork, bookkeeper: toHexRaw(bookkeeper.publicKey), unboundGas: wantedUnbound, loadingState: state !== undefined })
    : undefined
  const allocations: GenesisAllocation[] = [
    ...keys.map((k) => ({ address: k.address, main: k.main, gas: k.gas })),
    ...nativeKeys.map((k) => ({ address: k.address, main: DEFAULT_MAIN, gas: DEFAULT_GAS })),
  ]
  const genesisTimestamp = options.genesisTimestamp ?? state?.timestamp ?? Math.floor(Date.now() / 1000)
  const unboundGas = resumed !== undefined ? (resumed.config.unboundGas ?? undefined) : wantedUnbound && { genesis: genesisTimestamp, deadline: wantedUnbound.deadline }
  // With accrual on, the unallocated gas sits at the main-token contract, as on mainnet, which pays the claims.
  const genesis = resumed?.genesis ?? buildGenesis(world, allocations, bookkeeper, genesisTimestamp, unboundGas === undefined ? bookkeeper.address : MAIN_TOKEN_ADDRESS)
  if (resumed === undefined) {
    // A state document: a new genesis that holds it (over the dev allocations).
    if (state !== undefined) documents!.applyState(world, state, 0)
    store.create({ chainId, hardfork, bookkeeper: toHexRaw(bookkeeper.publicKey), unboundGas: unboundGas ?? null })
  }
  const clock = new Clock(options.clock ?? 'wall', genesis.header.timestamp)
  if (resumed !== undefined) clock.restore(resumed.clock)
  let chain: Chain | undefined
  // console.log lines: stdout by default (as Hardhat's node and Anvil print them), a function of the user's, or none.
  const consoleSink = options.console === false ? undefined : typeof options.console === 'function' ? options.console : (line: string) => console.log(line)
  const executor = await EvmExecutor.create({
    chainId,
    hardfork,
    world,
    blockHash: (height) => chain?.blockHash(height),
    console: consoleSink !== undefined,
  })
  chain = new Chain({
    world,
    executor,
    store,
    bookkeeper,
    genesis,
    clock,
    automine: options.automine ?? true,
    minGasPrice: options.minGasPrice ?? 0n,
    blockContext: options.blockContext ?? 'node',
    unboundGas,
    console: consoleSink,
    history: resumed,
  })
  if (resumed === undefined) store.persist()
  return chain
}

class DevnetInstance implements Devnet {
  readonly accounts: readonly DevAccount[]
  readonly chainId: number
  readonly rest: RestClient
  readonly nativeAccounts: readonly NativeDevAccount[]
  readonly time: DevnetTime
  readonly #context: Mutable<RpcContext>
  readonly #restContext: Mutable<RestContext>
  readonly #bodyLimit: number
  /** EIP-1193 events of the in-process provider ('message', 'disconnect'). */
  readonly #events = new EventEmitter()
  /** The in-process provider's subscriptions: notifications become 'message' events. */
  readonly #connection: SubscriptionConnection
  /** The context of function calls: the devnet's, with the in-process connection. */
  readonly #session: RpcContext
  readonly #freshChain: () => Promise<Chain>
  readonly #blockTime: number | undefined
  /** A reset under way (later resets wait for it). */
  #resetting: Promise<void> = Promise.resolve()
  /** The servers of `listen()`, once it was called (and until it fails or the devnet closes). */
  #server: Promise<{ apps: FastifyInstance[]; urls: DevnetUrls }> | undefined
  #closed = false

  constructor(
    context: Mutable<RpcContext>,
    restContext: Mutable<RestContext>,
    keys: { privateKey: Hex; address: Uint8Array }[],
    nativeAccounts: readonly NativeDevAccount[],
    bodyLimit: number,
    freshChain: () => Promise<Chain>,
    blockTime: number | undefined,
  ) {
    this.#freshChain = freshChain
    this.#blockTime = blockTime
    // Emitted after the current job: a listener that throws cannot break the chain's queue.
    this.#connection = context.subscriptions.connect((subscription, result) =>
      queueMicrotask(() => this.#events.emit('message', { type: 'eth_subscription', data: { subscription, result } })),
    )
    this.#session = Object.create(context, { connection: { value: this.#connection } }) as RpcContext
    this.nativeAccounts = Object.freeze([...nativeAccounts])
    this.chainId = context.chainId
    this.#context = context
    this.#restContext = restContext
    const call = async (method: string, path: string, body?: string): Promise<RestEnvelope> => {
      if (this.#closed) throw closedError()
      const { handleRest, stringifyRest } = restModules ?? (await loadRest())
      const answer = await handleRest(restContext, method, path, body)
      if (answer.status === 404) throw new RestNotFoundError(`404 page not found: ${method} ${path}`)
      // Through the wire format, so that u64 values beyond 2^53 read exactly as an HTTP client reads them.
      return JSON.parse(stringifyRest(answer.envelope)) as RestEnvelope
    }
    this.rest = {
      get: (path) => call('GET', path),
      post: (path, body) => call('POST', path, typeof body === 'string' ? body : JSON.stringify(body)),
    }
    this.#bodyLimit = bodyLimit
    this.time = devnetTime(() => this.#control(async (controls) => controls), () => this.#context.chain)
    this.accounts = Object.freeze(
      keys.map((k) => Object.freeze({ address: toHex(k.address), base58: toBase58(k.address), privateKey: k.privateKey })),
    )
  }

  get chain(): Chain {
    return this.#context.chain
  }

  get resumed(): boolean {
    return this.#context.chain.resumed
  }

  async dumpState(): Promise<StateDocument> {
    if (this.#closed) throw closedError()
    const { dumpState } = await stateDocuments()
    return dumpState(this.chain, this.chainId)
  }

  async loadState(doc: unknown): Promise<void> {
    if (this.#closed) throw closedError()
    const { applyState, parseStateDocument } = await stateDocuments()
    const state = parseStateDocument(doc)
    await this.chain.writeState((world, height) => applyState(world, state, height))
  }

  rpc(method: string, params: readonly unknown[] = []): Promise<unknown> {
    if (this.#closed) return Promise.reject(closedError())
    return this.#call(method, params)
  }

  request(args: RequestArguments): Promise<unknown> {
    if (this.#closed) return Promise.reject(closedError())
    return this.#call(args.method, args.params ?? [])
  }

  #call(method: string, params: unknown): Promise<unknown> {
    if (method !== 'eth_subscribe') return callRpc(this.#session, method, params)
    // Notifications wait until the caller has the id: released after its continuation ran (next tick).
    this.#connection.hold()
    return callRpc(this.#session, method, params).finally(() => process.nextTick(() => this.#connection.release()))
  }

  on(event: string, listener: (...args: any[]) => void): this {
    this.#events.on(event, listener)
    return this
  }

  removeListener(event: string, listener: (...args: any[]) => void): this {
    this.#events.removeListener(event, listener)
    return this
  }

  off(event: string, listener: (...args: any[]) => void): this {
    return this.removeListener(event, listener)
  }

  reset(): Promise<void> {
    if (this.#closed) return Promise.reject(closedError())
    const run = this.#resetting.then(() => this.#reset())
    this.#resetting = run.catch(() => {})
    return run
  }

  async #reset(): Promise<void> {
    const chain = await this.#freshChain()
    if (this.#closed) throw closedError()
    const old = this.#context.chain
    this.#context.controls.stopIntervalMining()
    // Swapped in one synchronous step: every later call, on every surface, sees the fresh chain.
    this.#context.chain = chain
    this.#context.filters = new FilterRegistry(this.#context.limits)
    this.#context.controls = new DevnetControls(chain, this.#context.limits)
    this.#restContext.chain = chain
    this.#context.subscriptions.rebind(chain)
    if (this.#blockTime !== undefined && this.#blockTime > 0) await this.#context.controls.setIntervalMining(Math.round(this.#blockTime * 1000))
    // Work queued on the old chain finishes there; its store is the new chain's, so it stays open.
    await old.idle()
  }

  async listen(given: ListenOptions = {}): Promise<DevnetUrls> {
    if (this.#closed) throw closedError()
    // Checked before fastify loads: a bad option binds nothing.
    const options = validateListenOptions(given)
    this.#server ??= this.#startServers(options).catch((err: unknown) => {
      this.#server = undefined
      throw err
    })
    return (await this.#server).urls
  }

  /** Loads fastify and the server plugins (first use only), and starts both servers. */
  async #startServers(options: ListenOptions): Promise<{ apps: FastifyInstance[]; urls: DevnetUrls }> {
    const host = options.host ?? '127.0.0.1'
    const [{ default: Fastify }, { rpcRoutes }, { restRoutes, restClientError }, { virtualHosts }, { logRequests }] = await Promise.all([
      import('fastify'),
      import('./server/rpcServer.ts'),
      import('./server/restServer.ts'),
      import('./server/guards.ts'),
      import('./server/requestLog.ts'),
    ])
    if (this.#closed) throw closedError()
    const vhosts = virtualHosts(options.vhosts)
    const rpc = Fastify({ bodyLimit: this.#bodyLimit, forceCloseConnections: true })
    // Handlers note each exchange for the log line only when there is a log.
    const record = options.log !== undefined
    await rpc.register(rpcRoutes, { context: this.#context, bodyLimit: this.#bodyLimit, cors: options.cors, vhosts, record })
    const rest = options.rest === false ? undefined : Fastify({ bodyLimit: this.#bodyLimit, forceCloseConnections: true, clientErrorHandler: restClientError })
    await rest?.register(restRoutes, { context: this.#restContext, bodyLimit: this.#bodyLimit, jsonDepthLimit: this.#context.limits.jsonDepthLimit, vhosts, record })
    const apps = rest === undefined ? [rpc] : [rpc, rest]
    if (options.log !== undefined) {
      logRequests(rpc, 'rpc', options.log)
      if (rest !== undefined) logRequests(rest, 'rest', options.log)
    }
    try {
      const rpcUrl = await listenOn(rpc, host, options.rpcPort ?? 0)
      const restUrl = rest === undefined ? undefined : await listenOn(rest, host, options.restPort ?? 0)
      return { apps, urls: restUrl === undefined ? { rpcUrl } : { rpcUrl, restUrl } }
    } catch (err) {
      await Promise.all(apps.map((app) => app.close()))
      throw err
    }
  }

  mine(count = 1, options: { interval?: number } = {}): Promise<void> {
    return this.#control((c) => c.mine(count, options.interval))
  }

  snapshot(): Promise<string> {
    return this.#control((c) => c.snapshots.take())
  }

  revert(id: string, options: { keep?: boolean } = {}): Promise<boolean> {
    return this.#control((c) => c.snapshots.revert(id as Hex, options.keep ?? false))
  }

  increaseTime(seconds: number): Promise<number> {
    return this.#control((c) => c.increaseTime(seconds))
  }

  setNextBlockTimestamp(timestamp: number): Promise<void> {
    return this.#control((c) => c.setNextBlockTimestamp(timestamp))
  }

  setTime(timestamp: number): Promise<void> {
    return this.#control((c) => c.setTime(timestamp))
  }

  setAutomine(on: boolean): Promise<void> {
    return this.#control((c) => c.setAutomine(on))
  }

  setIntervalMining(ms: number): Promise<void> {
    return this.#control((c) => c.setIntervalMining(ms))
  }

  setBalance(address: string, balances: BalanceChange): Promise<void> {
    return this.#control((c) => c.setBalance(address, balances))
  }

  setNonce(address: string, nonce: bigint | number): Promise<void> {
    return this.#control((c) => c.setNonce(address, BigInt(nonce)))
  }

  setCode(address: string, code: string): Promise<void> {
    return this.#control((c) => c.setCode(address, fromHex(code)))
  }

  setStorageAt(address: string, slot: string, value: string): Promise<void> {
    return this.#control((c) => c.setStorageAt(address, fromHex(slot.slice(2).padStart(64, '0')), fromHex(value)))
  }

  setCoinbase(address: string): Promise<void> {
    return this.#control((c) => c.setCoinbase(address))
  }

  setBlockGasLimit(gasLimit: bigint | number): Promise<void> {
    return this.#control((c) => c.setBlockGasLimit(BigInt(gasLimit)))
  }

  setNextBlockBaseFeePerGas(baseFee: bigint | number): Promise<void> {
    return this.#control((c) => c.setNextBlockBaseFeePerGas(BigInt(baseFee)))
  }

  setPrevRandao(prevRandao: string): Promise<void> {
    return this.#control((c) => c.setPrevRandao(fromHex(prevRandao)))
  }

  impersonateAccount(address: string): Promise<void> {
    return this.#control(async (c) => c.impersonate(address))
  }

  stopImpersonatingAccount(address: string): Promise<void> {
    return this.#control(async (c) => c.stopImpersonating(address))
  }

  #control<T>(work: (controls: DevnetControls) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(closedError())
    return work(this.#context.controls)
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    // Running traces and simulations stop within one pacing check (a few ms); close waits for none of them.
    this.chain.executor.abort()
    this.#context.controls.stopIntervalMining()
    const server = await this.#server?.catch(() => undefined)
    this.#server = undefined
    await Promise.all(server?.apps.map((app) => app.close()) ?? [])
    this.#connection.close()
    await this.#resetting
    await this.chain.close()
    this.#events.emit('disconnect', closedError())
    this.#events.removeAllListeners()
  }
}

/** Starts `app` on `host:port` and returns its base URL. */
async function listenOn(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port })
  const address = app.server.address()
  const bound = typeof address === 'object' && address !== null ? address.port : port
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`
}

/** What `devnet.rest` runs: the REST router and its JSON writer. */
interface RestModules {
  handleRest: typeof import('./rest/router.ts').handleRest
  stringifyRest: typeof import('./rest/json.ts').stringifyRest
}

/** Set once {@link loadRest} has loaded them; later calls use them without awaiting. */
let restModules: RestModules | undefined
let restLoading: Promise<RestModules> | undefined

/** Imports the REST router on the first `devnet.rest` call (starting a devnet does not need it). */
function loadRest(): Promise<RestModules> {
  restLoading ??= Promise.all([import('./rest/router.ts'), import('./rest/json.ts')]).then(
    ([router, json]) => (restModules = { handleRest: router.handleRest, stringifyRest: json.stringifyRest }),
  )
  return restLoading
}

/** What a closed devnet answers: EIP-1193's "disconnected" (4900). */
function closedError(): RpcError {
  return new RpcError(4900, 'the devnet is closed')
}
