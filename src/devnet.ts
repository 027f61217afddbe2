/**
 * createDevnet(): one ledger, its EVM, and the JSON-RPC surface, as function calls
 * and on a socket (design/ARCHITECTURE.md).
 *
 * Start-up loads only what the first request needs: fastify and the server plugins
 * are imported by `listen()`, dev keys of the default mnemonic come from a table,
 * key arithmetic runs on Node's native curves, and without a `db` option nothing is
 * persisted.
 */
import type { FastifyInstance } from 'fastify'
import { createBookkeeper } from './chain/bookkeeper.ts'
import { Chain } from './chain/chain.ts'
import { Clock } from './chain/clock.ts'
import { GAS_UNIT, MAIN_TOKEN_ADDRESS, MAIN_UNIT, SOLO_CHAIN_ID, SOLO_NETWORK_ID } from './core/constants.ts'
import { UNBOUND_SCHEDULE_END } from './chain/unboundGas.ts'
import { addressOfPrivateKey, deriveDevKeys, DEFAULT_MNEMONIC } from './chain/devAccounts.ts'
import { nativeDevKey } from './chain/nativeDevAccounts.ts'
import { buildGenesis, type GenesisAllocation } from './chain/genesis.ts'
import { WorldState } from './state/worldState.ts'
import { LedgerStore } from './chain/store.ts'
import { EvmExecutor } from './evm/executor.ts'
import { toBase58 } from './native/address.ts'
import type { DevnetOptions, ListenOptions } from './options.ts'
import type { RpcContext, SigningAccount } from './rpc/context.ts'
import { callRpc } from './rpc/dispatch.ts'
import { RpcError } from './rpc/errors.ts'
import { FilterRegistry } from './rpc/filters.ts'
import { DevnetControls, type BalanceChange } from './controls/controls.ts'
import type { RestContext } from './rest/context.ts'
import type { RestEnvelope } from './rest/router.ts'
import { fromHex, toHex, toHexRaw, type Hex } from './util/hex.ts'
import { VERSION } from './version.ts'

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
  /** The ledger (blocks, transactions, state); read-only use outside the package. */
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
  /** Moves time forward by `seconds` (whole, non-negative). Resolves to the total offset in seconds. */
  increaseTime(seconds: number): Promise<number>
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
  /** Lets eth_sendTransaction send as `address` without its key. */
  impersonateAccount(address: string): Promise<void>
  /** Ends an impersonation. */
  stopImpersonatingAccount(address: string): Promise<void>
  /** Stops the servers and closes the store. Afterwards every call rejects with RpcError 4900 (EIP-1193 disconnected). */
  close(): Promise<void>
}

/** Default balance of each dev account: 10,000 of each token. */
const DEFAULT_MAIN = 10_000n * MAIN_UNIT
const DEFAULT_GAS = 10_000n * GAS_UNIT
/** Default JSON-RPC body limit: go-ethereum's 5 MiB (reference §6.1). */
const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024

/**
 * Creates a devnet. See {@link DevnetOptions} for the options and their defaults.
 * Throws `RangeError` for allocations above a total supply, and `Error` for an
 * unknown hardfork.
 */
export async function createDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const chainId = options.chainId ?? SOLO_CHAIN_ID
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
  const world = new WorldState()
  const bookkeeper = createBookkeeper(options.bookkeeperKey)
  const allocations: GenesisAllocation[] = [
    ...keys.map((k) => ({ address: k.address, main: k.main, gas: k.gas })),
    ...nativeKeys.map((k) => ({ address: k.address, main: DEFAULT_MAIN, gas: DEFAULT_GAS })),
  ]
  const genesisTimestamp = options.genesisTimestamp ?? Math.floor(Date.now() / 1000)
  const unboundGas = options.unboundGas === undefined ? undefined : { genesis: genesisTimestamp, deadline: options.unboundGas.deadline ?? UNBOUND_SCHEDULE_END }
  // With accrual on, the unallocated gas sits at the main-token contract, as on mainnet, which pays the claims.
  const genesis = buildGenesis(world, allocations, bookkeeper, genesisTimestamp, unboundGas === undefined ? bookkeeper.address : MAIN_TOKEN_ADDRESS)
  // No database unless the user gives one: the ledger never reads it back (chain/store.ts).
  const store = new LedgerStore(options.db)
  await store.open()
  let chain: Chain | undefined
  const executor = await EvmExecutor.create({
    chainId,
    hardfork: options.hardfork ?? 'istanbul',
    world,
    blockHash: (height) => chain?.blockHash(height),
  })
  chain = new Chain({
    world,
    executor,
    store,
    bookkeeper,
    genesis,
    clock: new Clock(options.clock ?? 'wall', genesis.header.timestamp),
    automine: options.automine ?? true,
    minGasPrice: options.minGasPrice ?? 0n,
    unboundGas,
  })
  store.persist(world, [genesis], 0)

  const signers = new Map<string, SigningAccount>(keys.map((k) => [toHexRaw(k.address), { address: k.address, privateKey: k.privateKey }]))
  const context: RpcContext = {
    chain,
    signers,
    accountOrder: keys.map((k) => k.address),
    chainId,
    clientVersion: `dualnet/v${VERSION}`,
    filters: new FilterRegistry(),
    controls: new DevnetControls(chain),
  }
  if (options.blockTime !== undefined && options.blockTime > 0) await context.controls.setIntervalMining(options.blockTime * 1000)
  const restContext: RestContext = { chain, nodeVersion: `v${VERSION}-dualnet`, networkId: SOLO_NETWORK_ID }
  const nativeAccounts = nativeKeys.map((k) =>
    Object.freeze({ base58: toBase58(k.address), address: toHex(k.address), privateKey: k.privateKey, publicKey: k.publicKey }),
  )
  return new DevnetInstance(chain, context, restContext, keys, nativeAccounts, options.bodyLimit ?? DEFAULT_BODY_LIMIT)
}

class DevnetInstance implements Devnet {
  readonly accounts: readonly DevAccount[]
  readonly chainId: number
  readonly chain: Chain
  readonly rest: RestClient
  readonly nativeAccounts: readonly NativeDevAccount[]
  readonly #context: RpcContext
  readonly #restContext: RestContext
  readonly #bodyLimit: number
  /** The servers of `listen()`, once it was called (and until it fails or the devnet closes). */
  #server: Promise<{ apps: FastifyInstance[]; urls: DevnetUrls }> | undefined
  #closed = false

  constructor(
    chain: Chain,
    context: RpcContext,
    restContext: RestContext,
    keys: { privateKey: Hex; address: Uint8Array }[],
    nativeAccounts: readonly NativeDevAccount[],
    bodyLimit: number,
  ) {
    this.chain = chain
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
    this.accounts = Object.freeze(
      keys.map((k) => Object.freeze({ address: toHex(k.address), base58: toBase58(k.address), privateKey: k.privateKey })),
    )
  }

  rpc(method: string, params: readonly unknown[] = []): Promise<unknown> {
    if (this.#closed) return Promise.reject(closedError())
    return callRpc(this.#context, method, params)
  }

  request(args: RequestArguments): Promise<unknown> {
    if (this.#closed) return Promise.reject(closedError())
    return callRpc(this.#context, args.method, args.params ?? [])
  }

  async listen(options: ListenOptions = {}): Promise<DevnetUrls> {
    if (this.#closed) throw closedError()
    this.#server ??= this.#startServers(options).catch((err: unknown) => {
      this.#server = undefined
      throw err
    })
    return (await this.#server).urls
  }

  /** Loads fastify and the server plugins (first use only), and starts both servers. */
  async #startServers(options: ListenOptions): Promise<{ apps: FastifyInstance[]; urls: DevnetUrls }> {
    const host = options.host ?? '127.0.0.1'
    const [{ default: Fastify }, { rpcRoutes }, { restRoutes }] = await Promise.all([
      import('fastify'),
      import('./server/rpcServer.ts'),
      import('./server/restServer.ts'),
    ])
    if (this.#closed) throw closedError()
    const rpc = Fastify({ bodyLimit: this.#bodyLimit, forceCloseConnections: true })
    await rpc.register(rpcRoutes, { context: this.#context, bodyLimit: this.#bodyLimit })
    const rest = options.rest === false ? undefined : Fastify({ bodyLimit: this.#bodyLimit, forceCloseConnections: true })
    await rest?.register(restRoutes, { context: this.#restContext, bodyLimit: this.#bodyLimit })
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
    this.#context.controls.stopIntervalMining()
    const server = await this.#server?.catch(() => undefined)
    this.#server = undefined
    await Promise.all(server?.apps.map((app) => app.close()) ?? [])
    await this.chain.close()
  }
}

/** Reports every answered request of `app` as one line. */
function logRequests(app: FastifyInstance, name: string, log: (line: string) => void): void {
  app.addHook('onResponse', async (request, reply) => {
    log(`${name} ${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`)
  })
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
