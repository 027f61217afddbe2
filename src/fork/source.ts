/**
 * A fork's state source: the values of a remote node, fetched on first touch and
 * kept, under the devnet's own {@link WorldState} (which overlays its local writes on
 * them and never sends anything back).
 *
 * Reads stay synchronous, as the world state's are (the non-fork path pays nothing):
 * a value not fetched yet throws {@link ForkMiss}, which carries the load that fetches
 * it. Whoever can wait (the EVM's async state manager; the chain's queue; the JSON-RPC
 * and REST dispatch) awaits the load and reads again, or re-runs the work that missed
 * from its start, before anything was written (retry-on-miss; {@link retryOnForkMiss}).
 *
 * Values are frozen at first read: the real node answers eth_getBalance,
 * eth_getTransactionCount, eth_getCode and eth_getStorageAt for its latest state
 * whatever block is asked (reference §6.2), so a fork of it can only take a value as
 * the remote has it when first read. Against a node that serves past state (an
 * archive node, Anvil, another dualnet) every value is read at the fork block.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import type { AccountRecord, StateSource } from '../state/worldState.ts'
import { ForkMiss } from './miss.ts'
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'
import type { RemoteNode } from './remote.ts'
import { MAX_CODE_SIZE, NONCE, remoteData, remoteQuantity, STORAGE_WORD, WORD } from './remoteValues.ts'
import type { RemoteHistory } from './history.ts'
import type { RemoteRestHistory } from './restHistory.ts'

/**
 * A read of native state on a fork that has no REST URL of its remote (`fork.restUrl`):
 * main-token balances, allowances, unbound gas, native contract storage and contract
 * state come only over REST, so they are not forked. The REST routes answer it as
 * error 45001 with this message as Result.
 */
export class NotForkedError extends DualnetError {
  override name = 'NotForkedError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_NOT_FORKED'

  constructor(what: string) {
    super(`fork: ${what} not forked: the fork has no REST URL of the remote (fork.restUrl, --fork-rest-url), so native state is not fetched; the EVM view (eth_getBalance for gas balances) is forked`)
  }
}

/**
 * How a fork fetches native state over the remote's REST interface (fork/nativeFetcher.ts
 * implements it; the state layer does not speak REST addresses). Each rejects with
 * ForkRemoteError when the remote fails.
 */
export interface NativeFetcher {
  /** Main-token balance of `address` (40 hex), v2 units (1e-9). */
  main(address: string): Promise<bigint>
  /** Allowance of `token` from `owner` to `spender` (40 hex each), v2 units. */
  allowance(token: 'main' | 'gas', owner: string, spender: string): Promise<bigint>
  /** Native contract storage of `address` (40 hex) at `key` (hex): the stored value as hex, '' when missing. */
  storage(address: string, key: string): Promise<string>
  /** The deploy payload of the contract at `address` (40 hex) serialised (get_contract_state raw=1) as hex, or '' when the remote has none. */
  contract(address: string): Promise<string>
  /** The unbound-gas offset of `address` (40 hex): seconds after the remote's genesis block, 0 when never set (reference §4.2). */
  unboundOffset(address: string): Promise<number>
}

/**
 * The values a fork fetched, in a JSON-ready form (the disk cache's and the database's
 * content): accounts as [nonce, gas balance, code hash or '', main balance] in hex (the
 * main balance only with REST), code by hash, storage by address hex followed by slot
 * hex; with REST also allowances by `<token>:<owner>:<spender>` (hex amounts), native
 * storage by `<address>:<key>`, contracts by address (serialised hex, '' for none) and
 * unbound-gas offsets by address (seconds).
 */
export interface ForkValues {
  accounts: Record<string, [nonce: string, gas: string, codeHash: string, main?: string]>
  code: Record<string, string>
  storage: Record<string, string>
  allowances?: Record<string, string>
  nativeStorage?: Record<string, string>
  contracts?: Record<string, string>
  unboundOffsets?: Record<string, number>
}

/** A field of {@link ForkValues}: a kind of value fetched. */
export type ForkValueKind = keyof ForkValues

/** What one fetch brought: the kind of value and its key in {@link ForkValues}. */
export interface FetchedValue {
  kind: ForkValueKind
  key: string
}

/** Values of the remote at the fork block, fetched lazily and kept. */
export class ForkSource implements StateSource {
  readonly remote: RemoteNode
  /** The block number the values are read at, as a JSON-RPC quantity. */
  readonly blockTag: string
  readonly #accounts = new Map<string, AccountRecord>()
  /** Address hex followed by slot hex -> value without leading zeros. */
  readonly #storage = new Map<string, Uint8Array>()
  readonly #code = new Map<string, Uint8Array>()
  /** With REST: allowances by `<token>:<owner>:<spender>`, v2 units. */
  readonly #allowances = new Map<string, bigint>()
  /** With REST: native contract storage by `<address>:<key>`, hex ('' missing). */
  readonly #nativeStorage = new Map<string, string>()
  /** With REST: serialised deploy payloads by address, hex ('' none). */
  readonly #contracts = new Map<string, string>()
  /** With REST: unbound-gas offsets by address, seconds after the remote's genesis. */
  readonly #unboundOffsets = new Map<string, number>()
  /** Fetches under way, by key, so that concurrent reads share one. */
  readonly #loading = new Map<string, Promise<void>>()
  /** Fetches so far, of values and of history answers (a resumed database writes every value when some came before it was bound). */
  fetchCount = 0
  /** Told after each fetch (the disk cache and the database write what it brought). */
  readonly #listeners: ((fetched: FetchedValue | undefined) => void)[] = []
  #history: RemoteHistory | undefined
  /** With REST: the remote's REST answers about blocks and transactions up to the fork block (restHistory.ts); set by the fork's start. */
  #restHistory: RemoteRestHistory | undefined
  /**
   * Why the BlockRoot tree of local blocks does not continue the remote's (no REST URL,
   * or its frontier could not be rebuilt: fork/blockTree.ts); `undefined` when it does.
   */
  treeGap: string | undefined
  /** Called when the devnet closes (the disk cache writes what is not written yet). */
  onClose: (() => Promise<void>) | undefined

  /** How native state is fetched over REST; `undefined` without `fork.restUrl` (native state is then not forked). */
  readonly native: NativeFetcher | undefined

  constructor(remote: RemoteNode, blockNumber: number, native?: NativeFetcher) {
    this.remote = remote
    this.blockTag = `0x${blockNumber.toString(16)}`
    this.native = native
  }

  /**
   * The remote account `address` (40 hex): nonce, gas balance (wei) and code hash from
   * JSON-RPC at the fork block; the main-token balance from REST (balancev2), or 0
   * without REST (not forked). Throws {@link ForkMiss}.
   */
  account(address: string): AccountRecord {
    const record = this.#accounts.get(address)
    if (record !== undefined) return record
    throw new ForkMiss(`account 0x${address}`, () => this.loadAccount(address))
  }

  /** Storage slot `slot` (64 hex) of `address` on the remote, without leading zeros. Throws {@link ForkMiss}. */
  storage(address: string, slot: string): Uint8Array {
    const value = this.#storage.get(address + slot)
    if (value !== undefined) return value.slice()
    throw new ForkMiss(`storage slot 0x${slot} of 0x${address}`, () => this.loadStorage(address, slot))
  }

  /** Code fetched from the remote with hash `codeHash` (64 hex), or `undefined`. */
  code(codeHash: string): Uint8Array | undefined {
    return this.#code.get(codeHash)
  }

  /** Fetches the account `address` unless kept: balance, nonce and code in one batch. Rejects with ForkRemoteError. */
  loadAccount(address: string): Promise<void> {
    if (this.#accounts.has(address)) return Promise.resolve()
    return this.#once(address, async () => {
      const hex = `0x${address}`
      // The gas balance is the JSON-RPC one (read at the fork block where the remote serves past
      // state); balancev2 gives the main balance only, so the two views hold one record.
      const calls = ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].map((method) => ({ url: this.remote.url, call: { method, params: [hex, this.blockTag] } }))
      const [[balance, nonce, code], main] = await Promise.all([this.remote.batch(calls.map((c) => c.call)), this.native?.main(address) ?? 0n])
      // Each checked to its type's range before anything is kept (fork/remoteValues.ts).
      const gas = remoteQuantity(balance, calls[0]!, WORD)
      const count = remoteQuantity(nonce, calls[1]!, NONCE)
      const bytes = remoteData(code, calls[2]!, MAX_CODE_SIZE, "an account's code (EIP-170)")
      let codeHash: string | undefined
      if (bytes.length > 0) {
        codeHash = toHexRaw(keccak256(bytes))
        this.#code.set(codeHash, bytes)
      }
      this.#accounts.set(address, { nonce: count, gas, main, codeHash })
      this.#fetched({ kind: 'accounts', key: address })
    })
  }

  /** The remote's allowance of `token` from `owner` to `spender` (40 hex each), v2 units. Throws {@link ForkMiss}, or {@link NotForkedError} without REST. */
  allowance(token: 'main' | 'gas', owner: string, spender: string): bigint {
    const key = `${token}:${owner}:${spender}`
    const amount = this.#allowances.get(key)
    if (amount !== undefined) return amount
    const native = this.#requireNative('allowances are')
    throw new ForkMiss(`allowance ${key}`, () =>
      this.#once(`l:${key}`, async () => {
        this.#allowances.set(key, await native.allowance(token, owner, spender))
        this.#fetched({ kind: 'allowances', key })
      }),
    )
  }

  /** The remote's native contract storage of `address` (40 hex) at `key` (lower-case hex): value hex, '' when missing. Throws {@link ForkMiss}, or {@link NotForkedError} without REST. */
  nativeStorage(address: string, key: string): string {
    const id = `${address}:${key}`
    const value = this.#nativeStorage.get(id)
    if (value !== undefined) return value
    const native = this.#requireNative('native contract storage is')
    throw new ForkMiss(`native storage ${id}`, () =>
      this.#once(`n:${id}`, async () => {
        this.#nativeStorage.set(id, await native.storage(address, key))
        this.#fetched({ kind: 'nativeStorage', key: id })
      }),
    )
  }

  /** The remote's serialised deploy payload at `address` (40 hex) as hex, '' when it has none. Throws {@link ForkMiss}, or {@link NotForkedError} without REST. */
  contract(address: string): string {
    const value = this.#contracts.get(address)
    if (value !== undefined) return value
    const native = this.#requireNative('contract states are')
    throw new ForkMiss(`contract ${address}`, () =>
      this.#once(`d:${address}`, async () => {
        this.#contracts.set(address, await native.contract(address))
        this.#fetched({ kind: 'contracts', key: address })
      }),
    )
  }

  /** The remote's blocks, transactions and logs up to the fork block (history.ts); set by the fork's start (fork/connect.ts). */
  get history(): RemoteHistory | undefined {
    return this.#history
  }

  /** Takes `history` as the fork's; its fetches count as the source's (told to the same listeners). */
  set history(history: RemoteHistory | undefined) {
    this.#history = history
    if (history !== undefined) history.onFetched = () => this.#fetched()
  }

  /** With REST: the remote's REST answers about blocks and transactions up to the fork block (restHistory.ts); set by the fork's start (fork/connect.ts). */
  get restHistory(): RemoteRestHistory | undefined {
    return this.#restHistory
  }

  /** Takes `history` as the fork's REST history; its fetches count as the source's. */
  set restHistory(history: RemoteRestHistory | undefined) {
    this.#restHistory = history
    if (history !== undefined) history.onFetched = () => this.#fetched()
  }

  /** The remote's unbound-gas offset of `address` (40 hex), seconds after its genesis (0: never set). Throws {@link ForkMiss}, or {@link NotForkedError} without REST. */
  unboundOffset(address: string): number {
    const value = this.#unboundOffsets.get(address)
    if (value !== undefined) return value
    const native = this.#requireNative('unbound-gas offsets are')
    throw new ForkMiss(`unbound-gas offset of 0x${address}`, () =>
      this.#once(`u:${address}`, async () => {
        this.#unboundOffsets.set(address, await native.unboundOffset(address))
        this.#fetched({ kind: 'unboundOffsets', key: address })
      }),
    )
  }

  /**
   * Calls `listener` after each fetch: with the value fetched (an account brings its
   * code too, under its code hash), or `undefined` for a history answer (whose cache
   * tells its own changes: fork/answerCache.ts `watch`).
   */
  onFetch(listener: (fetched: FetchedValue | undefined) => void): void {
    this.#listeners.push(listener)
  }

  #fetched(fetched?: FetchedValue): void {
    this.fetchCount++
    for (const listener of this.#listeners) listener(fetched)
  }

  /** The value of `kind` at `key` in the form of {@link ForkValues}, or `undefined` when none is kept. */
  valueOf(kind: ForkValueKind, key: string): string | number | ForkValues['accounts'][string] | undefined {
    switch (kind) {
      case 'accounts': {
        const r = this.#accounts.get(key)
        if (r === undefined) return undefined
        const entry: ForkValues['accounts'][string] = [r.nonce.toString(16), r.gas.toString(16), r.codeHash ?? '']
        if (this.native !== undefined) entry.push(r.main.toString(16))
        return entry
      }
      case 'code':
        return hexOf(this.#code.get(key))
      case 'storage':
        return hexOf(this.#storage.get(key))
      case 'allowances':
        return this.#allowances.get(key)?.toString(16)
      case 'nativeStorage':
        return this.#nativeStorage.get(key)
      case 'contracts':
        return this.#contracts.get(key)
      case 'unboundOffsets':
        return this.#unboundOffsets.get(key)
    }
  }

  #requireNative(what: string): NativeFetcher {
    if (this.native === undefined) throw new NotForkedError(what)
    return this.native
  }

  /** Fetches a storage slot unless kept. Rejects with ForkRemoteError. */
  loadStorage(address: string, slot: string): Promise<void> {
    const key = address + slot
    if (this.#storage.has(key)) return Promise.resolve()
    return this.#once(key, async () => {
      const call = { method: 'eth_getStorageAt', params: [`0x${address}`, `0x${slot}`, this.blockTag] }
      const value = await this.remote.call(call.method, call.params)
      // At most one word: a longer value kept poisoned every later read of the slot (issue 35).
      this.#storage.set(key, stripLeadingZeros(remoteData(value, { url: this.remote.url, call }, STORAGE_WORD, 'a storage slot')))
      this.#fetched({ kind: 'storage', key })
    })
  }

  /** Fetches the accounts of `addresses` (40 hex each) concurrently (one batch each); for the accounts an execution will surely touch. */
  async prefetch(addresses: readonly string[]): Promise<void> {
    await Promise.all(addresses.map((a) => this.loadAccount(a)))
  }

  /** Everything fetched so far (see {@link ForkValues}). */
  values(): ForkValues {
    const out: ForkValues = { accounts: {}, code: {}, storage: {} }
    for (const [address, r] of this.#accounts) {
      out.accounts[address] = [r.nonce.toString(16), r.gas.toString(16), r.codeHash ?? '']
      if (this.native !== undefined) out.accounts[address].push(r.main.toString(16))
    }
    for (const [hash, code] of this.#code) out.code[hash] = Buffer.from(code).toString('hex')
    for (const [key, value] of this.#storage) out.storage[key] = Buffer.from(value).toString('hex')
    if (this.native === undefined) return out
    out.allowances = Object.fromEntries([...this.#allowances].map(([k, v]) => [k, v.toString(16)]))
    out.nativeStorage = Object.fromEntries(this.#nativeStorage)
    out.contracts = Object.fromEntries(this.#contracts)
    out.unboundOffsets = Object.fromEntries(this.#unboundOffsets)
    return out
  }

  /**
   * Takes values fetched before (the disk cache) as if fetched now. Throws TypeError
   * for a malformed entry, before taking any.
   */
  restore(values: ForkValues): void {
    const hex = (v: unknown) => typeof v === 'string' && /^([0-9a-f]{2})*$/.test(v)
    const quantityHex = (v: unknown) => typeof v === 'string' && /^[0-9a-f]+$/.test(v)
    // Values fetched without REST hold no main balances: a fork with REST cannot take them.
    if (this.native !== undefined && values.allowances === undefined) throw new TypeError('fork cache: the values were fetched without REST')
    const accounts = Object.entries(values.accounts ?? {}).map(([address, [nonce, gas, codeHash, main]]) => {
      if (!/^[0-9a-f]{40}$/.test(address) || !quantityHex(nonce) || !quantityHex(gas) || !/^([0-9a-f]{64})?$/.test(codeHash) || (this.native !== undefined && !quantityHex(main)))
        throw new TypeError(`fork cache: malformed account ${address}`)
      return [address, { nonce: BigInt(`0x${nonce}`), gas: BigInt(`0x${gas}`), main: this.native === undefined ? 0n : BigInt(`0x${main}`), codeHash: codeHash === '' ? undefined : codeHash }] as const
    })
    const allowances = Object.entries(values.allowances ?? {}).map(([key, amount]) => {
      if (!/^(main|gas):[0-9a-f]{40}:[0-9a-f]{40}$/.test(key) || !quantityHex(amount)) throw new TypeError(`fork cache: malformed allowance ${key}`)
      return [key, BigInt(`0x${amount}`)] as const
    })
    const nativeStorage = Object.entries(values.nativeStorage ?? {}).map(([key, value]) => {
      if (!/^[0-9a-f]{40}:([0-9a-f]{2})+$/.test(key) || !hex(value)) throw new TypeError(`fork cache: malformed native storage entry ${key}`)
      return [key, value] as const
    })
    const contracts = Object.entries(values.contracts ?? {}).map(([address, value]) => {
      if (!/^[0-9a-f]{40}$/.test(address) || !hex(value)) throw new TypeError(`fork cache: malformed contract ${address}`)
      return [address, value] as const
    })
    const unboundOffsets = Object.entries(values.unboundOffsets ?? {}).map(([address, offset]) => {
      if (!/^[0-9a-f]{40}$/.test(address) || !Number.isSafeInteger(offset) || offset < 0) throw new TypeError(`fork cache: malformed unbound-gas offset ${address}`)
      return [address, offset] as const
    })
    const code = Object.entries(values.code ?? {}).map(([hash, bytes]) => {
      if (!/^[0-9a-f]{64}$/.test(hash) || !hex(bytes)) throw new TypeError(`fork cache: malformed code ${hash}`)
      return [hash, new Uint8Array(Buffer.from(bytes, 'hex'))] as const
    })
    const storage = Object.entries(values.storage ?? {}).map(([key, bytes]) => {
      if (!/^[0-9a-f]{104}$/.test(key) || !hex(bytes)) throw new TypeError(`fork cache: malformed storage entry ${key}`)
      return [key, new Uint8Array(Buffer.from(bytes, 'hex'))] as const
    })
    for (const [k, v] of accounts) this.#accounts.set(k, v)
    for (const [k, v] of code) this.#code.set(k, v)
    for (const [k, v] of storage) this.#storage.set(k, v)
    for (const [k, v] of allowances) this.#allowances.set(k, v)
    for (const [k, v] of nativeStorage) this.#nativeStorage.set(k, v)
    for (const [k, v] of contracts) this.#contracts.set(k, v)
    for (const [k, v] of unboundOffsets) this.#unboundOffsets.set(k, v)
  }

  #once(key: string, fetch: () => Promise<void>): Promise<void> {
    let running = this.#loading.get(key)
    if (running === undefined) {
      running = fetch().finally(() => this.#loading.delete(key))
      this.#loading.set(key, running)
    }
    return running
  }
}

function hexOf(bytes: Uint8Array | undefined): string | undefined {
  return bytes === undefined ? undefined : Buffer.from(bytes).toString('hex')
}

function stripLeadingZeros(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return i === 0 ? value : value.slice(i)
}
