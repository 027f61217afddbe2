/**
 * SLOAD and SSTORE without a promise where the state is in memory.
 *
 * @ethereumjs/evm 10.1.3 reads storage through async methods of its state manager, so
 * an SLOAD costs the interpreter two awaited promises (its gas function and its logic)
 * and an SSTORE four or more (the gas function reads the current and the original value,
 * the logic writes, then reads the account back). dualnet's state manager holds the
 * ledger in memory and answers the same reads synchronously (`LedgerStateManager.now`,
 * syncState.ts). These functions are ethereumjs' own for Istanbul and later, over that
 * synchronous side: the same bytes (`word`, wordOpcodes.ts), the same helpers from the
 * same module instances (`updateSstoreGasEIP2200`, `accessStorageEIP2929`,
 * `setLengthLeftStorage`), hence the same gas, refunds, warm slots and errors. Where a
 * read answers {@link NOT_LOADED} (a fork's value not fetched yet), the opcode takes the
 * asynchronous path: ethereumjs' gas function, or the state manager's async method.
 *
 * Installed in one EVM's opcode table, only where its state manager has the synchronous
 * side and none of the EIPs that change these opcodes is active (6800, 7864, 7928, 8037,
 * 8038; EIP-2929's warm slots are kept as ethereumjs keeps them). A hardfork change
 * rebuilds the table with ethereumjs' functions (correct, only slower).
 */
import { type Account, type Address, EthereumJSErrorWithoutCode } from '@ethereumjs/util'
import { bigIntToMinimalBytes, bytesToBigInt, toHexRaw } from '../../util/hex.ts'
import { NOT_LOADED, type SyncState } from '../syncState.ts'
import { word } from './wordOpcodes.ts'

/** The parts of the run state these functions read and write. */
interface RunState {
  stack: { peek(n?: number): bigint[]; pop(): bigint; popN(n: number): bigint[]; push(value: bigint): void }
  interpreter: { isStatic(): boolean; getAddress(): Address }
  env: { address: Address; contract: Account }
}

/** The parts of a Common these functions read. */
interface CommonLike {
  isActivatedEIP(eip: number): boolean
}

type GasFunction = (runState: RunState, gas: bigint, common: CommonLike) => bigint | Promise<bigint>
type Logic = (runState: RunState, common: CommonLike) => void | Promise<void>

/** The helpers of @ethereumjs/evm's opcodes/EIP2200.js, EIP2929.js and util.js these functions call, and its error messages. */
export interface StorageHelpers {
  updateSstoreGasEIP2200(runState: RunState, current: Uint8Array, original: Uint8Array, value: Uint8Array, key: Uint8Array, common: CommonLike): bigint
  accessStorageEIP2929(runState: RunState, key: Uint8Array, isSstore: boolean, common: CommonLike, chargeGas?: boolean): bigint
  setLengthLeftStorage(value: Uint8Array): Uint8Array
  trap(message: string): never
  errorMessages: { STATIC_STATE_CHANGE: string }
}

const SLOAD = 0x54
const SSTORE = 0x55
const EMPTY = new Uint8Array(0)

/** EIPs under which ethereumjs' SLOAD or SSTORE does more than these functions. */
const EXCLUDED_EIPS = [6800, 7864, 7928, 8037, 8038]

/** An opcode-table entry, as far as this patch reads and writes it. */
interface TableEntry {
  gasHandler?: GasFunction
  opHandler?: Logic
  opcodeInfo?: { name?: string }
}

/** The state manager's synchronous side, if it has one (dualnet's LedgerStateManager does). */
function syncStateOf(evm: { stateManager: unknown }): SyncState | undefined {
  const now = (evm.stateManager as { now?: Partial<SyncState> }).now
  return typeof now?.storage === 'function' && typeof now.originalStorage === 'function' && typeof now.account === 'function' && typeof now.putStorage === 'function' ? (now as SyncState) : undefined
}

/**
 * Replaces the gas and logic functions of SLOAD and SSTORE in `evm`'s opcode table with
 * ones that read `evm`'s state synchronously. Returns true when installed, or when there is
 * nothing to do (no synchronous state, an excluded EIP active, a hardfork before
 * Istanbul); false, changing nothing, when the table does not have the shape of
 * @ethereumjs/evm 10.1.3's.
 */
export function installStorageOpcodes(evm: { stateManager: unknown; common: CommonLike & { gteHardfork(hardfork: string): boolean } }, helpers: StorageHelpers): boolean {
  const state = syncStateOf(evm)
  if (state === undefined || EXCLUDED_EIPS.some((eip) => evm.common.isActivatedEIP(eip)) || !evm.common.gteHardfork('istanbul')) return true
  const table = (evm as unknown as { _opcodeMap?: Array<TableEntry | undefined> })._opcodeMap
  const sload = table?.[SLOAD]
  const sstore = table?.[SSTORE]
  if (sload?.opcodeInfo?.name !== 'SLOAD' || sstore?.opcodeInfo?.name !== 'SSTORE') return false
  if ([sload.gasHandler, sload.opHandler, sstore.gasHandler, sstore.opHandler].some((f) => typeof f !== 'function')) return false
  const { updateSstoreGasEIP2200, accessStorageEIP2929, setLengthLeftStorage, trap, errorMessages } = helpers

  sload.gasHandler = (runState, gas, common) => {
    if (!common.isActivatedEIP(2929)) return gas
    return gas + accessStorageEIP2929(runState, word(runState.stack.peek()[0]!), false, common, true)
  }
  sload.opHandler = (runState) => {
    const key = runState.stack.pop()
    const value = state.storage(addressKey(runState.env.address), slotHex(key))
    if (value !== NOT_LOADED) {
      runState.stack.push(value.length === 0 ? 0n : bytesToBigInt(value))
      return
    }
    return (evm.stateManager as { getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> }).getStorage(runState.env.address, word(key)).then((loaded) => {
      runState.stack.push(loaded.length === 0 ? 0n : bytesToBigInt(loaded))
    })
  }

  const sstoreGas = sstore.gasHandler!
  sstore.gasHandler = (runState, gas, common) => {
    if (runState.interpreter.isStatic()) trap(errorMessages.STATIC_STATE_CHANGE)
    const [key, val] = runState.stack.peek(2) as [bigint, bigint]
    const address = addressKey(runState.env.address)
    const slot = slotHex(key)
    const current = state.storage(address, slot)
    const original = current === NOT_LOADED ? NOT_LOADED : state.originalStorage(address, slot)
    // Not in memory yet: ethereumjs' own function, which reads through the async methods (nothing was changed above).
    if (current === NOT_LOADED || original === NOT_LOADED) return sstoreGas(runState, gas, common)
    // The key's bytes are read only by EIP-2929's warm slots (Berlin on).
    const warm = common.isActivatedEIP(2929)
    const keyBytes = warm ? word(key) : EMPTY
    const value = val === 0n ? EMPTY : word(val)
    gas += updateSstoreGasEIP2200(runState, setLengthLeftStorage(current), setLengthLeftStorage(original), value, keyBytes, common)
    // After EIP-2200's sentry check, as ethereumjs does.
    if (warm) gas += accessStorageEIP2929(runState, keyBytes, true, common, true)
    return gas
  }
  sstore.opHandler = (runState) => {
    const [key, value] = runState.stack.popN(2) as [bigint, bigint]
    const address = addressKey(runState.env.address)
    state.putStorage(address, slotHex(key), bigIntToMinimalBytes(value))
    const account = state.account(address)
    if (account !== NOT_LOADED) return setContract(runState, account)
    return (evm.stateManager as { getAccount(address: Address): Promise<Account | undefined> }).getAccount(runState.env.address).then((loaded) => setContract(runState, loaded))
  }
  return true
}

/** The world state's key of a slot: the stack word as 64 lower-case hex digits (what `toHexRaw(word(key))` gives). */
function slotHex(key: bigint): string {
  return key.toString(16).padStart(64, '0')
}

/** The world state's key of each frame's address, made once per Address object. */
const addressKeys = new WeakMap<Address, string>()

function addressKey(address: Address): string {
  let key = addressKeys.get(address)
  if (key === undefined) {
    key = toHexRaw(address.bytes)
    addressKeys.set(address, key)
  }
  return key
}

/** What ethereumjs' `storageStore` ends with: the frame's account as written. */
function setContract(runState: RunState, account: Account | undefined): void {
  if (account === undefined) throw EthereumJSErrorWithoutCode('could not read account while persisting memory')
  runState.env.contract = account
}
