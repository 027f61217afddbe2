/**
 * The one ledger's state: accounts with both token balances, EVM code and EVM
 * storage, versioned by block height and journaled for snapshots.
 *
 * Units (reference §4.1): `gas` is held in v2 units (1e-18, = wei, what
 * `eth_getBalance` shows); `main` in v2 units (1e-9). Addresses are keyed by their
 * 40-character lower-case hex (the raw 20 bytes, the same for Base58 and 0x forms).
 */
import { Journal } from './journal.ts'
import { VersionedMap } from './versionedMap.ts'

/** What the ledger holds for one address. */
export interface AccountRecord {
  /** EVM nonce: transactions sent through the EVM (native transactions do not touch it). */
  readonly nonce: bigint
  /** Gas-token balance in 1e-18 units (wei). */
  readonly gas: bigint
  /** Main-token balance in 1e-9 units (v2). */
  readonly main: bigint
  /** Keccak-256 of the EVM code as 64 hex characters, or `undefined` for no code. */
  readonly codeHash: string | undefined
}

/** The record of an address that was never written. */
export const EMPTY_ACCOUNT: AccountRecord = Object.freeze({ nonce: 0n, gas: 0n, main: 0n, codeHash: undefined })

/** Which kinds of keys changed, so the store can persist exactly those. */
export interface StateTouches {
  accounts: Set<string>
  /** Address hex followed by slot hex. */
  storage: Set<string>
  /** Code hashes registered since the last drain. */
  code: Set<string>
}

/**
 * Versioned, journaled world state. Reads take the height to read at; writes take
 * the height they belong to (the block being built, or the latest block for the
 * devnet's state setters).
 */
export class WorldState {
  readonly journal = new Journal()
  readonly touches: StateTouches = { accounts: new Set(), storage: new Set(), code: new Set() }
  readonly #accounts = new VersionedMap<AccountRecord>(this.journal, (k) => this.touches.accounts.add(k))
  /** Storage per address: slot (64 hex) -> value bytes without leading zeros. */
  readonly #storage = new Map<string, VersionedMap<Uint8Array>>()
  /** Native-token allowances in v2 units, keyed `<token id>:<owner hex>:<spender hex>`. */
  readonly #allowances = new VersionedMap<bigint>(this.journal)
  /** Unbound-gas time offsets (seconds after genesis) by address hex (§4.2 unboundTimeOffset). */
  readonly #unboundOffsets = new VersionedMap<number>(this.journal)
  /** Code by its hash; immutable, so it needs no versions. */
  readonly #code = new Map<string, Uint8Array>()

  /** Account of `address` as of `height` (never written: {@link EMPTY_ACCOUNT}). */
  getAccount(address: string, height: number): AccountRecord {
    return this.#accounts.get(address, height) ?? EMPTY_ACCOUNT
  }

  /** Whether `address` has ever been written at or below `height` and still holds something. */
  hasAccount(address: string, height: number): boolean {
    return this.#accounts.get(address, height) !== undefined
  }

  /** Writes the account of `address` at `height`; `undefined` deletes it. */
  setAccount(address: string, record: AccountRecord | undefined, height: number): void {
    this.#accounts.set(address, record, height)
  }

  /** Changes some fields of the account at `height`. */
  updateAccount(address: string, height: number, change: Partial<AccountRecord>): void {
    this.#accounts.set(address, { ...this.getAccount(address, height), ...change }, height)
  }

  /** Code with the given hash (empty when unknown). */
  getCodeByHash(codeHash: string | undefined): Uint8Array {
    if (codeHash === undefined) return EMPTY_BYTES
    return this.#code.get(codeHash) ?? EMPTY_BYTES
  }

  /** Registers code under its hash. */
  putCode(codeHash: string, code: Uint8Array): void {
    if (this.#code.has(codeHash)) return
    this.#code.set(codeHash, code)
    this.touches.code.add(codeHash)
  }

  /** Storage slot (64 hex) of `address` as of `height`; empty bytes when unset. */
  getStorage(address: string, slot: string, height: number): Uint8Array {
    return this.#storage.get(address)?.get(slot, height) ?? EMPTY_BYTES
  }

  /** Writes a storage slot at `height`; empty `value` clears it. */
  setStorage(address: string, slot: string, value: Uint8Array, height: number): void {
    let slots = this.#storage.get(address)
    if (slots === undefined) {
      slots = new VersionedMap<Uint8Array>(this.journal, (s) => this.touches.storage.add(`${address}${s}`))
      this.#storage.set(address, slots)
    }
    slots.set(slot, value.length === 0 ? undefined : value, height)
  }

  /** Clears every slot of `address` at `height` (contract destruction). */
  clearStorage(address: string, height: number): void {
    const slots = this.#storage.get(address)
    if (slots === undefined) return
    for (const slot of slots.keys()) {
      if (slots.getNewest(slot) !== undefined) slots.set(slot, undefined, height)
    }
  }

  /** Slots of `address` that hold a value as of `height`, as [slot hex, value] pairs. */
  *storageEntries(address: string, height: number): IterableIterator<[string, Uint8Array]> {
    const slots = this.#storage.get(address)
    if (slots === undefined) return
    for (const slot of slots.keys()) {
      const value = slots.get(slot, height)
      if (value !== undefined) yield [slot, value]
    }
  }

  /** Allowance of `token` ('main' | 'gas') from `owner` to `spender` (hex) as of `height`, v2 units. */
  getAllowance(token: 'main' | 'gas', owner: string, spender: string, height: number): bigint {
    return this.#allowances.get(`${token}:${owner}:${spender}`, height) ?? 0n
  }

  /** Writes an allowance at `height` (the native token contracts' approve). */
  setAllowance(token: 'main' | 'gas', owner: string, spender: string, amount: bigint, height: number): void {
    this.#allowances.set(`${token}:${owner}:${spender}`, amount === 0n ? undefined : amount, height)
  }

  /** Unbound-gas offset of `address` (hex) as of `height`; 0 when never set. */
  getUnboundOffset(address: string, height: number): number {
    return this.#unboundOffsets.get(address, height) ?? 0
  }

  /** Records the unbound-gas offset of `address` at `height`. */
  setUnboundOffset(address: string, offset: number, height: number): void {
    this.#unboundOffsets.set(address, offset, height)
  }

  /** Addresses ever written. */
  accountKeys(): IterableIterator<string> {
    return this.#accounts.keys()
  }

  /** Code entries, for persistence. */
  codeEntries(): IterableIterator<[string, Uint8Array]> {
    return this.#code.entries()
  }
}

const EMPTY_BYTES = new Uint8Array(0)
