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
    })
  }

  /** Fetches a storage slot unless kept. Rejects with ForkRemoteError. */
  loadStorage(address: string, slot: string): Promise<void> {
    const key = address + slot
    if (this.#storage.has(key)) return Promise.resolve()
    return this.#once(key, async () => {
      const value = await this.remote.call<string>('eth_getStorageAt', [`0x${address}`, `0x${slot}`, this.blockTag])
      this.#storage.set(key, stripLeadingZeros(hexBytes(value, 'eth_getStorageAt')))
    })
  }

  /** Fetches the accounts of `addresses` (40 hex each) concurrently (one batch each); for the accounts an execution will surely touch. */
  async prefetch(addresses: readonly string[]): Promise<void> {
    await Promise.all(addresses.map((a) => this.loadAccount(a)))
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
