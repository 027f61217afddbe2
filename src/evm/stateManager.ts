/**
 * The EVM's view of the ledger: an @ethereumjs StateManagerInterface over the
 * {@link WorldState}. Writes of the running transaction go to an overlay with its
 * own undo log (the EVM's call-frame checkpoints); at the end of a transaction the
 * overlay is either committed into the world state at the height of the block being
 * built, or discarded (eth_call, eth_estimateGas).
 */
import { Account, type Address, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common'
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'
import { EMPTY_ACCOUNT, type AccountRecord } from '../state/worldState.ts'
import { ForkMiss, forkMissesYield } from '../fork/miss.ts'
import type { EvmWorld } from './execution.ts'
import { NOT_LOADED, type SyncState } from './syncState.ts'
import { UndoLog } from './undoLog.ts'

const EMPTY = new Uint8Array(0)

/**
 * A storage value as the EVM reads it: empty for an unset slot, else left-padded to 32
 * bytes. @ethereumjs/evm pads what it reads to 32 bytes before every SSTORE's gas
 * (`setLengthLeftStorage`) with @ethereumjs/util's `setLengthLeft`, which copies through
 * two array spreads when the value is shorter; a value already 32 bytes long is used as it
 * is. The number is the same either way (SLOAD reads it big-endian, a zero is empty).
 */
function word32(value: Uint8Array): Uint8Array {
  if (value.length === 0 || value.length === 32) return value
  const out = new Uint8Array(32)
  out.set(value, 32 - value.length)
  return out
}
const NULL_CODE_HASH = toHexRaw(KECCAK256_NULL)
const ZERO_ROOT = new Uint8Array(32)

/** StateManagerInterface over the world state as of a chosen height, with a discardable overlay. */
export class LedgerStateManager implements StateManagerInterface {
  readonly #world: EvmWorld
  /** Height the base state is read at (the block being built, or the block an eth_call targets). */
  #readHeight = 0
  readonly #accounts = new Map<string, AccountRecord>()
  readonly #slots = new Map<string, Map<string, Uint8Array>>()
  /** Addresses whose base storage is hidden (destroyed or re-created in this transaction). */
  readonly #cleared = new Set<string>()
  readonly #undo = new UndoLog()
  /**
   * Code hashes as bytes, kept per hash: every account read of a contract needs them,
   * and a devnet holds few codes. Per state manager, so that the hashes of a
   * simulation's code overrides go with its engine (chain/overrides.ts). Never mutated
   * (ethereumjs replaces an account's codeHash, it does not write into it).
   */
  readonly #codeHashBytes = new Map<string, Uint8Array>()

  /** EIP-2200 needs the value a slot had before the transaction: that is the base state. */
  readonly originalStorageCache = {
    get: async (address: Address, key: Uint8Array): Promise<Uint8Array> => {
      const addr = toHexRaw(address.bytes)
      const slot = toHexRaw(key)
      try {
        return word32(this.#world.getStorage(addr, slot, this.#readHeight))
      } catch (err) {
        return word32(await afterMiss(err, () => this.#world.getStorage(addr, slot, this.#readHeight)))
      }
    },
    clear: (): void => {},
  }

  /**
   * The reads and the write of the synchronous SLOAD and SSTORE (patches/storageOpcodes.ts):
   * what `getStorage`, `originalStorageCache.get`, `getAccount` and `putStorage` give,
   * without a promise. A read answers {@link NOT_LOADED} where a fork's value is not
   * fetched yet; the opcode then takes the asynchronous path, which waits for it.
   */
  readonly now: SyncState = {
    storage: (address, slot) => {
      try {
        return this.#storage(address, slot)
      } catch (err) {
        return notLoaded(err)
      }
    },
    originalStorage: (address, slot) => {
      try {
        return word32(this.#world.getStorage(address, slot, this.#readHeight))
      } catch (err) {
        return notLoaded(err)
      }
    },
    account: (address) => {
      try {
        return this.#account(address)
      } catch (err) {
        return notLoaded(err)
      }
    },
    putStorage: (address, slot, value) => this.#putStorage(address, slot, value),
  }

  constructor(world: EvmWorld) {
    this.#world = world
  }

  /** Points the base at the world state as of `height` and empties the overlay. */
  reset(height: number): void {
    this.#readHeight = height
    this.#accounts.clear()
    this.#slots.clear()
    this.#cleared.clear()
    this.#undo.clear()
  }

  /** Writes the overlay into the world state at `height` (the block being built) and empties it. */
  commitTo(height: number): void {
    for (const address of this.#cleared) this.#world.clearStorage(address, height)
    for (const [address, slots] of this.#slots) {
      for (const [slot, value] of slots) this.#world.setStorage(address, slot, value, height)
    }
    for (const [address, record] of this.#accounts) this.#world.setAccount(address, record, height)
    this.reset(this.#readHeight)
  }

  /** The full ledger record (both tokens) of `address` as the running transaction sees it. */
  record(address: string): AccountRecord {
    return this.#accounts.get(address) ?? this.#world.getAccount(address, this.#readHeight)
  }

  /** Replaces the record of `address` in the overlay, undoably. */
  setRecord(address: string, record: AccountRecord): void {
    const had = this.#accounts.has(address)
    const previous = this.#accounts.get(address)
    this.#accounts.set(address, record)
    this.#undo.push(() => {
      if (had) this.#accounts.set(address, previous!)
      else this.#accounts.delete(address)
    })
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = toHexRaw(address.bytes)
    try {
      return this.#account(key)
    } catch (err) {
      return afterMiss(err, () => this.#account(key))
    }
  }

  /** The EVM account of `address` (hex, no 0x); throws ForkMiss where a fork's value is not fetched yet. */
  #account(address: string): Account | undefined {
    const r = this.record(address)
    if (r.nonce === 0n && r.gas === 0n && r.codeHash === undefined) return undefined
    return new Account(r.nonce, r.gas, KECCAK256_RLP, r.codeHash === undefined ? KECCAK256_NULL : this.#hashBytes(r.codeHash))
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address)
    const key = toHexRaw(address.bytes)
    const codeHash = toHexRaw(account.codeHash)
    this.setRecord(key, {
      ...this.record(key),
      nonce: account.nonce,
      gas: account.balance,
      codeHash: codeHash === NULL_CODE_HASH ? undefined : codeHash,
    })
  }

  /** EVM deletion (self-destruct, empty-account clean-up) keeps the main-token balance: it is not EVM state. */
  async deleteAccount(address: Address): Promise<void> {
    const key = toHexRaw(address.bytes)
    const current = this.record(key)
    if (current.nonce === 0n && current.gas === 0n && current.codeHash === undefined) return
    this.setRecord(key, { ...EMPTY_ACCOUNT, main: current.main })
    await this.clearStorage(address)
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    if (fields.nonce !== undefined) account.nonce = fields.nonce
    if (fields.balance !== undefined) account.balance = fields.balance
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash
    await this.putAccount(address, account)
  }

  async putCode(address: Address, code: Uint8Array): Promise<void> {
    const codeHash = toHexRaw(keccak256(code))
    this.#world.putCode(codeHash, code)
    const key = toHexRaw(address.bytes)
    this.setRecord(key, { ...this.record(key), codeHash: code.length === 0 ? undefined : codeHash })
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = toHexRaw(address.bytes)
    try {
      return this.#world.getCodeByHash(this.record(key).codeHash)
    } catch (err) {
      return afterMiss(err, () => this.#world.getCodeByHash(this.record(key).codeHash))
    }
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const addr = toHexRaw(address.bytes)
    const slot = toHexRaw(key)
    try {
      return this.#storage(addr, slot)
    } catch (err) {
      return afterMiss(err, () => this.#storage(addr, slot))
    }
  }

  /** The value of `slot` at `address` (hex, no 0x) as the running transaction sees it; throws ForkMiss where a fork's value is not fetched yet. */
  #storage(addr: string, slot: string): Uint8Array {
    const written = this.#slots.get(addr)?.get(slot)
    if (written !== undefined) return word32(written)
    if (this.#cleared.has(addr)) return EMPTY
    return word32(this.#world.getStorage(addr, slot, this.#readHeight))
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.#putStorage(toHexRaw(address.bytes), toHexRaw(key), value)
  }

  #putStorage(addr: string, slot: string, value: Uint8Array): void {
    let slots = this.#slots.get(addr)
    if (slots === undefined) {
      slots = new Map()
      this.#slots.set(addr, slots)
    }
    const owner = slots
    const had = owner.has(slot)
    const previous = owner.get(slot)
    owner.set(slot, stripLeadingZeros(value))
    this.#undo.push(() => {
      if (had) owner.set(slot, previous!)
      else owner.delete(slot)
    })
  }

  async clearStorage(address: Address): Promise<void> {
    const addr = toHexRaw(address.bytes)
    const previousSlots = this.#slots.get(addr)
    const wasCleared = this.#cleared.has(addr)
    this.#slots.delete(addr)
    this.#cleared.add(addr)
    this.#undo.push(() => {
      if (previousSlots !== undefined) this.#slots.set(addr, previousSlots)
      if (!wasCleared) this.#cleared.delete(addr)
    })
  }

  async checkpoint(): Promise<void> {
    this.#undo.checkpoint()
  }

  async commit(): Promise<void> {
    this.#undo.commit()
  }

  async revert(): Promise<void> {
    this.#undo.revert()
  }

  /** The code hash `hex` as bytes (see #codeHashBytes). */
  #hashBytes(hex: string): Uint8Array {
    let bytes = this.#codeHashBytes.get(hex)
    if (bytes === undefined) {
      bytes = new Uint8Array(Buffer.from(hex, 'hex'))
      this.#codeHashBytes.set(hex, bytes)
    }
    return bytes
  }

  /** The chain keeps no state trie (its eth blocks report a zero stateRoot, reference §6.3). */
  async getStateRoot(): Promise<Uint8Array> {
    return ZERO_ROOT
  }

  async setStateRoot(): Promise<void> {
    throw new Error('dualnet keeps no state trie: setStateRoot is not available')
  }

  async hasStateRoot(): Promise<boolean> {
    return false
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    throw new Error('dualnet state is shared through the chain, not copied')
  }
}

/** {@link NOT_LOADED} for a fork's value not fetched yet (ForkMiss); other errors go on. */
function notLoaded(err: unknown): typeof NOT_LOADED {
  if (err instanceof ForkMiss) return NOT_LOADED
  throw err
}

/**
 * A fork's value was not fetched yet (ForkMiss): waits for it and reads again, so an
 * execution over a fork runs through without starting over (in a simulation run by
 * yieldingForkMisses, fork/miss.ts: throws it on); other errors go on.
 */
async function afterMiss<T>(err: unknown, read: () => T): Promise<T> {
  for (;;) {
    if (!(err instanceof ForkMiss) || forkMissesYield()) throw err
    await err.load()
    try {
      return read()
    } catch (again) {
      err = again
    }
  }
}

function stripLeadingZeros(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return i === 0 ? value : value.subarray(i)
}
