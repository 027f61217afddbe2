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

/**
 * Values under the local ones: what an entry never written here reads. A fork's remote
 * is one (fork/source.ts `ForkSource`), which the state knows only by this interface.
 * A read of a value not fetched yet throws ForkMiss (fork/miss.ts), whose `load()`
 * fetches it; the caller then runs its work again.
 */
export interface StateSource {
  /** Whether native state (main balances, allowances, unbound gas) is sourced too; `undefined` when it is not. */
  readonly native: unknown
  /** Account of `address` (40 hex). */
  account(address: string): AccountRecord
  /** Code by its hash (64 hex), `undefined` when the source has none. */
  code(codeHash: string): Uint8Array | undefined
  /** Storage slot `slot` (64 hex) of `address` (40 hex), without leading zeros. */
  storage(address: string, slot: string): Uint8Array
  /** Allowance of `token` from `owner` to `spender` (40 hex each), v2 units. */
  allowance(token: 'main' | 'gas', owner: string, spender: string): bigint
  /** Unbound-gas offset of `address` (40 hex), seconds after genesis. */
  unboundOffset(address: string): number
}

/** Which kinds of keys changed, so the store can persist exactly those. */
export interface StateTouches {
  accounts: Set<string>
  /** Address hex followed by slot hex. */
  storage: Set<string>
  /** Code hashes registered since the last drain. */
  code: Set<string>
  /** Allowance keys `<token>:<owner hex>:<spender hex>`. */
  allowances: Set<string>
  /** Addresses whose unbound-gas offset changed. */
  unbound: Set<string>
}

/** The versioned kinds of state entries, as persistence names them. */
export type StateKind = 'account' | 'storage' | 'allowance' | 'unbound'

/** A state entry's value in a kind-neutral form: accounts as records, storage as bytes, allowances as bigint, offsets as number. */
export type StateValue = AccountRecord | Uint8Array | bigint | number

/**
 * Versioned, journaled world state. Reads take the height to read at; writes take
 * the height they belong to (the block being built, or the latest block for the
 * devnet's state setters).
 */
export class WorldState {
  readonly journal = new Journal()
  readonly touches: StateTouches = { accounts: new Set(), storage: new Set(), code: new Set(), allowances: new Set(), unbound: new Set() }
  readonly #accounts = new VersionedMap<AccountRecord>(this.journal, (k) => this.touches.accounts.add(k))
  /**
   * Storage per address: slot (64 hex) -> value, held as a bigint (24 to 48 bytes
   * instead of about 210 for a small Uint8Array with its ArrayBuffer) and handed out as
   * the bytes without leading zeros; a value given with a leading zero byte is kept as
   * given (see {@link packStorage}).
   */
  readonly #storage = new Map<string, VersionedMap<StoredValue>>()
  /** Native-token allowances in v2 units, keyed `<token id>:<owner hex>:<spender hex>`. */
  readonly #allowances = new VersionedMap<bigint>(this.journal, (k) => this.touches.allowances.add(k))
  /** Unbound-gas time offsets (seconds after genesis) by address hex (§4.2 unboundTimeOffset). */
  readonly #unboundOffsets = new VersionedMap<number>(this.journal, (k) => this.touches.unbound.add(k))
  /** Code by its hash; immutable, so it needs no versions. */
  readonly #code = new Map<string, Uint8Array>()
  /** Values under the local ones (a fork's remote): what an entry never written here reads ({@link StateSource}). */
  #fork: StateSource | undefined
  /** With a fork: addresses whose remote storage is hidden from a height on (contract destruction). */
  #wiped: VersionedMap<true> | undefined

  /** The source under this state (a fork's remote), if any. */
  get source(): StateSource | undefined {
    return this.#fork
  }

  /** Puts a source's values (a fork's remote) under this state, once, before the first read. */
  attachSource(source: StateSource): void {
    this.#fork = source
    this.#wiped = new VersionedMap<true>(this.journal)
  }

  /** Account of `address` as of `height` (never written: {@link EMPTY_ACCOUNT}, or the fork's; may throw ForkMiss). */
  getAccount(address: string, height: number): AccountRecord {
    const record = this.#accounts.get(address, height)
    if (record !== undefined) return record
    if (this.#fork === undefined || this.#accounts.has(address, height)) return EMPTY_ACCOUNT
    return this.#fork.account(address)
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
    return this.#code.get(codeHash) ?? this.#fork?.code(codeHash) ?? EMPTY_BYTES
  }

  /** Code with the given hash (64 hex) this state or its source holds (a fork's: fetched already), `undefined` when neither does (debug_codeByHash). */
  knownCode(codeHash: string): Uint8Array | undefined {
    return this.#code.get(codeHash) ?? this.#fork?.code(codeHash)
  }

  /** Registers code under its hash. */
  putCode(codeHash: string, code: Uint8Array): void {
    if (this.#code.has(codeHash)) return
    this.#code.set(codeHash, code)
    this.touches.code.add(codeHash)
  }

  /** Storage slot (64 hex) of `address` as of `height`; empty bytes when unset (with a fork: the remote's; may throw ForkMiss). */
  getStorage(address: string, slot: string, height: number): Uint8Array {
    const slots = this.#storage.get(address)
    const value = slots?.get(slot, height)
    if (value !== undefined) return unpackStorage(value)
    if (this.#fork === undefined || slots?.has(slot, height) === true || this.#wiped!.get(address, height) === true) return EMPTY_BYTES
    return this.#fork.storage(address, slot)
  }

  /** Writes a storage slot at `height`; empty `value` clears it. */
  setStorage(address: string, slot: string, value: Uint8Array, height: number): void {
    let slots = this.#storage.get(address)
    if (slots === undefined) {
      slots = new VersionedMap<StoredValue>(this.journal, (s) => this.touches.storage.add(`${address}${s}`))
      this.#storage.set(address, slots)
    }
    slots.set(slot, value.length === 0 ? undefined : packStorage(value), height)
  }

  /** Clears every slot of `address` at `height` (contract destruction). */
  clearStorage(address: string, height: number): void {
    this.#wiped?.set(address, true, height)
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
      if (value !== undefined) yield [slot, unpackStorage(value)]
    }
  }

  /**
   * Addresses (40 hex, in no order) whose EVM account differs between the states as of
   * `from` and as of `to` (`from` < `to`): nonce, gas-token balance, code hash, or a
   * storage slot, as go-ethereum's debug_getModifiedAccountsByNumber counts a change
   * (eth/api_debug.go getModifiedAccounts). Only entries written above `from` are
   * compared, so the cost is one look at each address written.
   */
  modifiedAccounts(from: number, to: number): string[] {
    const changed = new Set<string>()
    const within = (versions: { height: number }[]) => versions.some((v) => v.height <= to)
    for (const address of this.#accounts.keys()) {
      if (!within(this.#accounts.versionsFrom(address, from + 1))) continue
      const a = this.#accounts.get(address, from) ?? EMPTY_ACCOUNT
      const b = this.#accounts.get(address, to) ?? EMPTY_ACCOUNT
      if (a.nonce !== b.nonce || a.gas !== b.gas || a.codeHash !== b.codeHash) changed.add(address)
    }
    for (const [address, slots] of this.#storage) {
      if (changed.has(address)) continue
      for (const slot of slots.keys()) {
        if (!within(slots.versionsFrom(slot, from + 1))) continue
        const a = slots.get(slot, from)
        const b = slots.get(slot, to)
        if (!sameStored(a, b)) {
          changed.add(address)
          break
        }
      }
    }
    return [...changed]
  }

  /** Allowance of `token` ('main' | 'gas') from `owner` to `spender` (hex) as of `height`, v2 units (with a fork with REST: the remote's unless written here; may throw ForkMiss). */
  getAllowance(token: 'main' | 'gas', owner: string, spender: string, height: number): bigint {
    const key = `${token}:${owner}:${spender}`
    const amount = this.#allowances.get(key, height)
    if (amount !== undefined) return amount
    // A fork with REST reads the remote's allowance under the local writes; without REST none is forked (0).
    if (this.#fork?.native === undefined || this.#allowances.has(key, height)) return 0n
    return this.#fork.allowance(token, owner, spender)
  }

  /** Writes an allowance at `height` (the native token contracts' approve). */
  setAllowance(token: 'main' | 'gas', owner: string, spender: string, amount: bigint, height: number): void {
    this.#allowances.set(`${token}:${owner}:${spender}`, amount === 0n ? undefined : amount, height)
  }

  /** Unbound-gas offset of `address` (hex) as of `height`; 0 when never set (with a fork with REST: the remote's unless written here; may throw ForkMiss). */
  getUnboundOffset(address: string, height: number): number {
    const offset = this.#unboundOffsets.get(address, height)
    if (offset !== undefined) return offset
    if (this.#fork?.native === undefined || this.#unboundOffsets.has(address, height)) return 0
    return this.#fork.unboundOffset(address)
  }

  /** Records the unbound-gas offset of `address` at `height`. */
  setUnboundOffset(address: string, offset: number, height: number): void {
    this.#unboundOffsets.set(address, offset, height)
  }

  /** Allowances that hold an amount as of `height`: [token, owner hex, spender hex, amount (v2 units)]. */
  *allowanceEntries(height: number): IterableIterator<[token: 'main' | 'gas', owner: string, spender: string, amount: bigint]> {
    for (const key of this.#allowances.keys()) {
      const amount = this.#allowances.get(key, height)
      if (amount === undefined) continue
      const [token, owner, spender] = key.split(':') as ['main' | 'gas', string, string]
      yield [token, owner, spender, amount]
    }
  }

  /** Unbound-gas offsets set as of `height`: [address hex, seconds after genesis]. */
  *unboundOffsetEntries(height: number): IterableIterator<[address: string, offset: number]> {
    for (const address of this.#unboundOffsets.keys()) {
      const offset = this.#unboundOffsets.get(address, height)
      if (offset !== undefined) yield [address, offset]
    }
  }

  /**
   * Versions of one entry written at `floor` or above, newest first (`undefined`: a
   * deletion), for the store. `key` as in {@link StateTouches}: storage keys are the
   * address hex followed by the slot hex.
   */
  versionsFrom(kind: StateKind, key: string, floor: number): { height: number; value: StateValue | undefined }[] {
    switch (kind) {
      case 'account':
        return this.#accounts.versionsFrom(key, floor)
      case 'allowance':
        return this.#allowances.versionsFrom(key, floor)
      case 'unbound':
        return this.#unboundOffsets.versionsFrom(key, floor)
      case 'storage': {
        const slots = this.#storage.get(key.slice(0, 40))
        if (slots === undefined) return []
        return slots.versionsFrom(key.slice(40), floor).map((v) => ({ height: v.height, value: v.value === undefined ? undefined : unpackStorage(v.value) }))
      }
    }
  }

  /**
   * Writes one stored version back (resuming from a database): versions of a key must
   * come in ascending height order. Journaled and touched like any write; the caller
   * trims the journal and clears the touches afterwards.
   */
  loadVersion(kind: StateKind, key: string, height: number, value: StateValue | undefined): void {
    switch (kind) {
      case 'account':
        return this.#accounts.set(key, value as AccountRecord | undefined, height)
      case 'allowance':
        return this.#allowances.set(key, value as bigint | undefined, height)
      case 'unbound':
        return this.#unboundOffsets.set(key, value as number | undefined, height)
      case 'storage':
        return this.setStorage(key.slice(0, 40), key.slice(40), (value as Uint8Array | undefined) ?? EMPTY_BYTES, height)
    }
  }

  /** Forgets which entries changed (after the store persisted them, or when nothing persists). */
  clearTouches(): void {
    const t = this.touches
    t.accounts.clear()
    t.storage.clear()
    t.code.clear()
    t.allowances.clear()
    t.unbound.clear()
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

/** Whether two held storage values (undefined: unset) read the same. */
function sameStored(a: StoredValue | undefined, b: StoredValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  const x = unpackStorage(a)
  const y = unpackStorage(b)
  return x.length === y.length && x.every((byte, i) => byte === y[i])
}

/** A storage value as held: a bigint, or the bytes themselves when they start with a zero byte. */
type StoredValue = bigint | Uint8Array

/** 2^48: below it a value fits a double exactly. */
const TWO_48 = 0x1000000000000n

/**
 * Non-empty storage bytes as held. Values without a leading zero byte (what the EVM
 * state manager and the state setters write) become a bigint; any other value is
 * copied as is, so that every value reads back byte for byte.
 */
function packStorage(value: Uint8Array): StoredValue {
  if (value[0] === 0) return value.slice()
  const n = value.length
  // Whole 6-byte chunks after a head of n % 6 bytes, each exact in a double.
  let i = n % 6
  let head = 0
  for (let j = 0; j < i; j++) head = head * 256 + value[j]!
  let result = BigInt(head)
  for (; i < n; i += 6) {
    const chunk = (value[i]! * 0x10000 + value[i + 1]! * 0x100 + value[i + 2]!) * 0x1000000 + value[i + 3]! * 0x10000 + value[i + 4]! * 0x100 + value[i + 5]!
    result = (result << 48n) | BigInt(chunk)
  }
  return result
}

/** The bytes of a held storage value: big-endian without leading zeros; a fresh array the caller may keep. */
function unpackStorage(value: StoredValue): Uint8Array {
  if (typeof value !== 'bigint') return value
  if (value < TWO_48) {
    let rest = Number(value)
    let length = 0
    for (let t = rest; t > 0; t = Math.floor(t / 256)) length++
    const out = new Uint8Array(length)
    for (let i = length - 1; i >= 0; i--) {
      out[i] = rest % 256
      rest = Math.floor(rest / 256)
    }
    return out
  }
  let hex = value.toString(16)
  if ((hex.length & 1) === 1) hex = `0${hex}`
  const bytes = Buffer.from(hex, 'hex')
  const out = new Uint8Array(bytes.length)
  out.set(bytes)
  return out
}
