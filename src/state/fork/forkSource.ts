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
import type { AccountRecord } from '../worldState.ts'
import { keccak256 } from '../../util/hash.ts'
import { toHexRaw } from '../../util/hex.ts'
import type { RemoteNode } from './remote.ts'
import type { RemoteHistory } from './history.ts'

/**
 * A read reached a value of the fork that is not fetched yet. Not an error for users:
 * `load()` fetches it (rejecting with ForkRemoteError when the remote fails), after
 * which the same read succeeds.
 */
export class ForkMiss extends Error {
  override name = 'ForkMiss'
  /** Fetches the missing value (and, for an account, its balance, nonce and code together). */
  readonly load: () => Promise<void>

  constructor(what: string, load: () => Promise<void>) {
    super(`fork: ${what} is not fetched yet`)
    this.load = load
  }
}

/** Runs `work`, and after a {@link ForkMiss} fetches what it missed and runs it again from the start. */
export async function retryOnForkMiss<T>(work: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await work()
    } catch (err) {
      if (!(err instanceof ForkMiss)) throw err
      await err.load()
    }
  }
}

const EMPTY = new Uint8Array(0)

/**
 * The values a fork fetched, in a JSON-ready form (the disk cache's content):
 * accounts as [nonce, gas balance, code hash or ''] in hex, code by hash, storage by
 * address hex followed by slot hex.
 */
export interface ForkValues {
  accounts: Record<string, [nonce: string, gas: string, codeHash: string]>
  code: Record<string, string>
  storage: Record<string, string>
}

/** Values of the remote at the fork block, fetched lazily and kept. */
export class ForkSource {
  readonly remote: RemoteNode
  /** The block number the values are read at, as a JSON-RPC quantity. */
  readonly blockTag: string
  readonly #accounts = new Map<string, AccountRecord>()
  /** Address hex followed by slot hex -> value without leading zeros. */
  readonly #storage = new Map<string, Uint8Array>()
  readonly #code = new Map<string, Uint8Array>()
  /** Fetches under way, by key, so that concurrent reads share one. */
  readonly #loading = new Map<string, Promise<void>>()
  /** Told after each fetch (the disk cache schedules a write). */
  onFetched: (() => void) | undefined
  /** The remote's blocks, transactions and logs up to the fork block (history.ts); set by the fork's start (chain/fork.ts). */
  history: RemoteHistory | undefined
  /** Called when the devnet closes (the disk cache writes what is not written yet). */
  onClose: (() => Promise<void>) | undefined

  constructor(remote: RemoteNode, blockNumber: number) {
    this.remote = remote
    this.blockTag = `0x${blockNumber.toString(16)}`
  }

  /** The remote account `address` (40 hex): nonce, gas balance (wei) and code hash; main is 0 (not forked). Throws {@link ForkMiss}. */
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
      const [balance, nonce, code] = (await this.remote.batch([
        { method: 'eth_getBalance', params: [hex, this.blockTag] },
        { method: 'eth_getTransactionCount', params: [hex, this.blockTag] },
        { method: 'eth_getCode', params: [hex, this.blockTag] },
      ])) as string[]
      const bytes = hexBytes(code!, 'eth_getCode')
      let codeHash: string | undefined
      if (bytes.length > 0) {
        codeHash = toHexRaw(keccak256(bytes))
        this.#code.set(codeHash, bytes)
      }
      this.#accounts.set(address, { nonce: quantity(nonce!, 'eth_getTransactionCount'), gas: quantity(balance!, 'eth_getBalance'), main: 0n, codeHash })
      this.onFetched?.()
    })
  }

  /** Fetches a storage slot unless kept. Rejects with ForkRemoteError. */
  loadStorage(address: string, slot: string): Promise<void> {
    const key = address + slot
    if (this.#storage.has(key)) return Promise.resolve()
    return this.#once(key, async () => {
      const value = await this.remote.call<string>('eth_getStorageAt', [`0x${address}`, `0x${slot}`, this.blockTag])
      this.#storage.set(key, stripLeadingZeros(hexBytes(value, 'eth_getStorageAt')))
      this.onFetched?.()
    })
  }

  /** Fetches the accounts of `addresses` (40 hex each) concurrently (one batch each); for the accounts an execution will surely touch. */
  async prefetch(addresses: readonly string[]): Promise<void> {
    await Promise.all(addresses.map((a) => this.loadAccount(a)))
  }

  /** Everything fetched so far (see {@link ForkValues}). */
  values(): ForkValues {
    const out: ForkValues = { accounts: {}, code: {}, storage: {} }
    for (const [address, r] of this.#accounts) out.accounts[address] = [r.nonce.toString(16), r.gas.toString(16), r.codeHash ?? '']
    for (const [hash, code] of this.#code) out.code[hash] = Buffer.from(code).toString('hex')
    for (const [key, value] of this.#storage) out.storage[key] = Buffer.from(value).toString('hex')
    return out
  }

  /**
   * Takes values fetched before (the disk cache) as if fetched now. Throws TypeError
   * for a malformed entry, before taking any.
   */
  restore(values: ForkValues): void {
    const hex = (v: unknown) => typeof v === 'string' && /^([0-9a-f]{2})*$/.test(v)
    const accounts = Object.entries(values.accounts ?? {}).map(([address, [nonce, gas, codeHash]]) => {
      if (!/^[0-9a-f]{40}$/.test(address) || !/^[0-9a-f]+$/.test(nonce) || !/^[0-9a-f]+$/.test(gas) || !/^([0-9a-f]{64})?$/.test(codeHash))
        throw new TypeError(`fork cache: malformed account ${address}`)
      return [address, { nonce: BigInt(`0x${nonce}`), gas: BigInt(`0x${gas}`), main: 0n, codeHash: codeHash === '' ? undefined : codeHash }] as const
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

/** A JSON-RPC quantity as a bigint; throws TypeError naming the call for anything else. */
function quantity(value: string, call: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw new TypeError(`fork: the remote's ${call} answered ${JSON.stringify(value)}, not a quantity`)
  return BigInt(value)
}

/** JSON-RPC data as bytes; throws TypeError naming the call for anything else. */
function hexBytes(value: string, call: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new TypeError(`fork: the remote's ${call} answered ${JSON.stringify(value)}, not hex data`)
  return value.length === 2 ? EMPTY : new Uint8Array(Buffer.from(value.slice(2), 'hex'))
}

function stripLeadingZeros(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return i === 0 ? value : value.slice(i)
}
