/**
 * The synchronous side of the EVM's state manager (stateManager.ts `now`), for the
 * patched SLOAD and SSTORE (patches/storageOpcodes.ts): the ledger's state is in
 * memory, so a read needs no promise unless a fork's value has to be fetched first.
 */
import type { Account } from '@ethereumjs/util'

/** What a synchronous read answers where a fork's value is not fetched yet: take the asynchronous path, which waits for it. */
export const NOT_LOADED: unique symbol = Symbol('dualnet.notLoaded')

/**
 * The reads and the write of SLOAD and SSTORE, without a promise. Addresses and slots
 * are the world state's keys: lower-case hex without `0x`, of 20 and 32 bytes.
 */
export interface SyncState {
  /** As `getStorage`: the slot's value as the running transaction sees it, empty or 32 bytes. */
  storage(address: string, slot: string): Uint8Array | typeof NOT_LOADED
  /** As `originalStorageCache.get`: the slot's value before the transaction (EIP-2200), empty or 32 bytes. */
  originalStorage(address: string, slot: string): Uint8Array | typeof NOT_LOADED
  /** As `getAccount`: the account, `undefined` for an empty one. */
  account(address: string): Account | undefined | typeof NOT_LOADED
  /** As `putStorage` (undoable at the EVM's checkpoints). */
  putStorage(address: string, slot: string, value: Uint8Array): void
}
