/**
 * The running devnet: the EIP-1193 provider (`request`, `rpc`, events), the REST
 * client, the controls as methods, reset and close. Built by createDevnet (create.ts);
 * `listen()` starts the servers of servers.ts.
 */
import { EventEmitter } from 'node:events'
import type { Chain } from '../chain/chain.ts'
import type { ForkOptions } from '../fork/connect.ts'
import type { StateDocument } from '../persistence/stateDocument.ts'
import type { ListenOptions } from '../options/types.ts'
import { validateListenOptions } from '../options/validate.ts'
import type { RpcContext } from '../rpc/context.ts'
import { callRpc } from '../rpc/dispatch.ts'
import type { RpcError } from '../rpc/errors.ts'
import { FilterRegistry } from '../rpc/filters.ts'
import type { SubscriptionConnection } from '../rpc/subscriptions.ts'
import { DevnetControls, InvalidControlError, type BalanceChange } from '../controls/controls.ts'
import { gasOf, gasReportSnapshots } from '../gas/snapshots.ts'
import { devnetTime, type DevnetTime } from '../controls/time.ts'
import type { RestContext } from '../rest/context.ts'
import type { RestEnvelope } from '../rest/router.ts'
import { fromHex, toHex, type Hex } from '../util/hex.ts'
import { toBase58 } from '../native/address.ts'
import { checksumAddress } from '../util/checksumAddress.ts'
import { type RunningServer, startServers } from './servers.ts'
import { DevnetClosedError, toProviderError } from './providerErrors.ts'
import type { RpcMethodName, RpcParamsArgument, RpcRequest, RpcResult } from '../rpc/schema.ts'
import { RestNotFoundError, type DevAccount, type Devnet, type DevnetUrls, type NativeDevAccount, type RequestArguments, type RestClient } from './types.ts'

/** State documents (the `state` option, dumpState, loadState) load on first use, off the start-up path. */
export const stateDocuments = () => import('../persistence/stateDocument.ts')

/**
 * The ledger (blocks, transactions, state) of a devnet `createDevnet` made, for the
 * CLI's block lines and dualnet's own tests; not part of the package's API (the
 * package entry does not export it). A reset replaces it: read it again afterwards.
 * Throws TypeError for another object.
 */
export function chainOf(devnet: Devnet): Chain {
  if (!(devnet instanceof DevnetInstance)) throw new TypeError('chainOf: not a devnet made by createDevnet')
  return devnet.chain
}

/** A chain built by a reset, with the net_version of the remote it forks (if any). */
export interface FreshChain {
  chain: Chain
  netVersion: string | undefined
  /** The REST network id: the remote's with `fork.restUrl`, else the solo node's 3. */
  networkId: number
}

/** Properties of `T` made writable: the contexts whose chain a reset replaces. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] }

export class DevnetInstance implements Devnet {
  readonly accounts: readonly DevAccount[]
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
  readonly #freshChain: (fork: ForkOptions | undefined) => Promise<FreshChain>
  /** The fork of the latest reset (or creation); `undefined`: none. */
  #fork: ForkOptions | undefined
  readonly #blockTime: number | undefined
  /** A reset under way (later resets wait for it). */
  #resetting: Promise<void> = Promise.resolve()
  /** The servers of `listen()`, once it was called (and until it fails or the devnet closes). */
  #server: Promise<{ apps: RunningServer[]; urls: DevnetUrls }> | undefined
  #closed = false

  constructor(
    context: Mutable<RpcContext>,
    restContext: Mutable<RestContext>,
    keys: { privateKey: Hex; address: Uint8Array }[],
    nativeAccounts: readonly NativeDevAccount[],
    bodyLimit: number,
    freshChain: (fork: ForkOptions | undefined) => Promise<FreshChain>,
    fork: ForkOptions | undefined,
    blockTime: number | undefined,
  ) {
    this.#freshChain = freshChain
    this.#fork = fork
    this.#blockTime = blockTime
    // Emitted after the current job: a listener that throws cannot break the chain's queue.
    this.#connection = context.subscriptions.connect((subscription, result) => queueMicrotask(() => this.#events.emit('message', { type: 'eth_subscription', data: { subscription, result } })))
    this.#session = Object.create(context, { connection: { value: this.#connection } }) as RpcContext
    this.nativeAccounts = Object.freeze([...nativeAccounts])
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
    // The schema types each route's Result (rest/schema.ts); the router answers what the route's handler returned.
    this.rest = {
      get: (path: string) => call('GET', path),
      post: (path: string, body: unknown) => call('POST', path, typeof body === 'string' ? body : JSON.stringify(body)),
    } as RestClient
    this.#bodyLimit = bodyLimit
    this.time = devnetTime(
      () => this.#control(async (controls) => controls),
      () => this.#context.chain,
    )
    this.accounts = Object.freeze(keys.map((k) => Object.freeze({ address: checksumAddress(k.address), addressLower: toHex(k.address), base58: toBase58(k.address), privateKey: k.privateKey })))
  }

  /** The ledger; a reset replaces it. Internal: read it through {@link chainOf}. */
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

  // The schema types the interface (Devnet.rpc, Devnet.request); the implementation takes anything, as the wire does.
  rpc<M extends RpcMethodName>(method: M, ...params: RpcParamsArgument<M>): Promise<RpcResult<M>>
  rpc(method: string, params: unknown = []): Promise<unknown> {
    return this.rpcUntyped(method, params as readonly unknown[])
  }

  rpcUntyped(method: string, params: readonly unknown[] | object = []): Promise<unknown> {
    if (this.#closed) return Promise.reject(closedError())
    return this.#call(method, params)
  }

  request<M extends RpcMethodName>(args: RpcRequest<M>): Promise<RpcResult<M>>
  request(args: RequestArguments): Promise<unknown> {
    // An execution revert in the shape viem's custom() transport does not retry (providerErrors.ts toProviderError).
    return this.rpcUntyped(args.method, args.params ?? []).catch((err: unknown) => Promise.reject(toProviderError(err)))
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

  /** EIP-155 chain id (a reset to a fork may change it). */
  get chainId(): number {
    return this.#context.chainId
  }

  reset(options: { fork?: ForkOptions | null } = {}): Promise<void> {
    if (this.#closed) return Promise.reject(closedError())
    const fork = options.fork === undefined ? this.#fork : (options.fork ?? undefined)
    const run = this.#resetting.then(() => this.#reset(fork))
    this.#resetting = run.catch(() => {})
    return run
  }

  async #reset(fork: ForkOptions | undefined): Promise<void> {
    const { chain, netVersion, networkId } = await this.#freshChain(fork)
    if (this.#closed) throw closedError()
    this.#fork = fork
    const old = this.#context.chain
    this.#context.chainId = Number(chain.executor.chainId)
    this.#context.netVersion = netVersion
    this.#context.controls.stopIntervalMining()
    // Swapped in one synchronous step: every later call, on every surface, sees the fresh chain.
    this.#context.chain = chain
    this.#context.filters = new FilterRegistry(this.#context.limits)
    this.#context.controls = new DevnetControls(chain, this.#context.limits)
    this.#restContext.chain = chain
    this.#restContext.networkId = networkId
    this.#context.subscriptions.rebind(chain)
    if (this.#blockTime !== undefined && this.#blockTime > 0) await this.#context.controls.setIntervalMining(Math.round(this.#blockTime * 1000))
    // Work queued on the old chain finishes there; its store is the new chain's, so it stays open.
    await old.idle()
  }

  async listen(given: ListenOptions = {}): Promise<DevnetUrls> {
    if (this.#closed) throw closedError()
    // Checked before fastify loads: a bad option binds nothing.
    const options = validateListenOptions(given)
    this.#server ??= startServers(options, {
      context: this.#context,
      restContext: this.#restContext,
      bodyLimit: this.#bodyLimit,
      checkOpen: () => {
        if (this.#closed) throw closedError()
      },
    }).catch((err: unknown) => {
      this.#server = undefined
      throw err
    })
    return (await this.#server).urls
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

  async gasSnapshot(name: string, measured: Hex | { readonly gasUsed: bigint | Hex }): Promise<bigint> {
    if (this.#closed) throw closedError()
    if (typeof name !== 'string' || name === '') throw new InvalidControlError('a gas snapshot name is a non-empty string')
    let gas: bigint
    if (typeof measured === 'string' && measured.length === 66) {
      const found = /^0x[0-9a-fA-F]{64}$/.test(measured) ? this.chain.transaction(measured.slice(2).toLowerCase()) : undefined
      if (found === undefined) throw new InvalidControlError(`transaction ${measured} is not mined on this devnet`)
      gas = found.record.gasUsed
    } else {
      try {
        gas = gasOf(measured)
      } catch (err) {
        throw new InvalidControlError((err as Error).message)
      }
    }
    return this.#context.gasSnapshots.record(name, gas)
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
    // The coverage option's reports, written once the last execution ended.
    await this.#context.coverage?.close()
    const gasSnapshots = this.#context.gasSnapshots
    const report = await this.#context.gasReport?.close(gasSnapshots.configured)
    // With both options, the report's figures are gas snapshots too (docs/gas-snapshots.md): written, or checked.
    if (report !== undefined && gasSnapshots.configured) gasSnapshots.recordAll(gasReportSnapshots(report))
    await this.chain.close()
    this.#events.emit('disconnect', closedError())
    this.#events.removeAllListeners()
    // Gas snapshot check mode: the run fails at its end with every change (as forge snapshot --check), after everything closed.
    const mismatch = gasSnapshots.mismatch()
    if (mismatch !== undefined) throw mismatch
  }
}

/** What `devnet.rest` runs: the REST router and its JSON writer. */
interface RestModules {
  handleRest: typeof import('../rest/router.ts').handleRest
  stringifyRest: typeof import('../rest/json.ts').stringifyRest
}

/** Set once {@link loadRest} has loaded them; later calls use them without awaiting. */
let restModules: RestModules | undefined
let restLoading: Promise<RestModules> | undefined

/** Imports the REST router on the first `devnet.rest` call (starting a devnet does not need it). */
function loadRest(): Promise<RestModules> {
  restLoading ??= Promise.all([import('../rest/router.ts'), import('../rest/json.ts')]).then(([router, json]) => (restModules = { handleRest: router.handleRest, stringifyRest: json.stringifyRest }))
  return restLoading
}

/** What a closed devnet answers: EIP-1193's "disconnected" (4900, devnet/providerErrors.ts). */
export function closedError(): RpcError {
  return new DevnetClosedError()
}
