/**
 * State documents: the head state of a chain as JSON (`devnet.dumpState()`,
 * anvil_dumpState), and loading one (`createDevnet({ state })`, `devnet.loadState`,
 * anvil_loadState). Block history is not carried, as with Anvil's default dumps.
 *
 * Version 1 (README "State that lasts"):
 * ```
 * { "format": "dualnet-state", "version": 1, "chainId": 12345,
 *   "head": { "number": 7, "timestamp": 1700000000, "hash": "0x…" },
 *   "accounts": { "0x<20 bytes>": { "nonce": "1", "main": "<1e-9 units>", "gas": "<wei>",
 *       "code": "0x…", "storage": { "0x<32-byte slot>": "0x<32-byte value>" }, "unboundOffset": 0 } },
 *   "allowances": [ { "token": "main" | "gas", "owner": "0x…", "spender": "0x…", "amount": "<1e-9 units>" } ] }
 * ```
 * Amounts are decimal strings (they exceed 2^53). `code`, `storage` and
 * `unboundOffset` are left out when empty. An Anvil state (`{ "accounts": { "0x…":
 * { "nonce", "balance", "code", "storage" } } }`) also loads: `balance` is the gas
 * token in wei; the main token is left as it is.
 */
import { gunzipSync } from 'node:zlib'
import { keccak256 } from '../../util/hash.ts'
import { fromHex, toHex, toHexRaw, type Hex } from '../../util/hex.ts'
import type { AccountRecord, WorldState } from '../../state/worldState.ts'
import type { Chain } from '../chain.ts'
import { PersistenceError, UnsupportedVersionError } from './errors.ts'
import { STATE_DOCUMENT_FORMAT, STATE_DOCUMENT_VERSION } from './schema.ts'

export { STATE_DOCUMENT_FORMAT, STATE_DOCUMENT_VERSION }

/** One account of a {@link StateDocument}. */
export interface StateAccount {
  /** EVM nonce, decimal. */
  nonce: string
  /** Main-token balance in 1e-9 units (v2), decimal. */
  main: string
  /** Gas-token balance in wei (1e-18), decimal. */
  gas: string
  /** EVM code, 0x-hex; absent: none. */
  code?: Hex
  /** Non-zero storage slots: 32-byte slot -> 32-byte value, 0x-hex. */
  storage?: Record<Hex, Hex>
  /** Unbound-gas time offset, seconds after genesis (§4.2); absent: 0. */
  unboundOffset?: number
}

/** The head state of a chain; see the module comment for the layout. */
export interface StateDocument {
  format: typeof STATE_DOCUMENT_FORMAT
  version: typeof STATE_DOCUMENT_VERSION
  chainId: number
  /** The block the state is as of: number, Unix seconds, 0x hash. */
  head: { number: number; timestamp: number; hash: Hex }
  accounts: Record<Hex, StateAccount>
  allowances: { token: 'main' | 'gas'; owner: Hex; spender: Hex; amount: string }[]
}

/** A document checked and decoded, ready to write. */
export interface ParsedState {
  /** Unix seconds of the dumped head, when the document has one. */
  timestamp: number | undefined
  accounts: {
    address: string
    nonce: bigint
    /** `undefined`: keep the current balance (Anvil documents carry no main token). */
    main: bigint | undefined
    gas: bigint
    code: Uint8Array
    storage: [slot: string, value: Uint8Array][]
    unboundOffset: number | undefined
  }[]
  allowances: { token: 'main' | 'gas'; owner: string; spender: string; amount: bigint }[]
}

/** The head state of `chain` (its latest block, pending empty ones included) as a {@link StateDocument}. */
export function dumpState(chain: Chain, chainId: number): StateDocument {
  const height = chain.height
  const world = chain.world
  const accounts: Record<Hex, StateAccount> = {}
  const entry = (address: string): StateAccount => {
    const key = `0x${address}` as Hex
    accounts[key] ??= accountEntry(world.getAccount(address, height), world, address, height)
    return accounts[key]
  }
  for (const address of [...world.accountKeys()].sort()) if (world.hasAccount(address, height)) entry(address)
  for (const [address, offset] of world.unboundOffsetEntries(height)) if (offset !== 0) entry(address).unboundOffset = offset
  const allowances = [...world.allowanceEntries(height)].map(([token, owner, spender, amount]) => ({
    token,
    owner: `0x${owner}` as Hex,
    spender: `0x${spender}` as Hex,
    amount: String(amount),
  }))
  return {
    format: STATE_DOCUMENT_FORMAT,
    version: STATE_DOCUMENT_VERSION,
    chainId,
    head: { number: height, timestamp: chain.timestampAt(height), hash: toHex(chain.blockHash(height)!) },
    accounts,
    allowances,
  }
}

function accountEntry(record: AccountRecord, world: WorldState, address: string, height: number): StateAccount {
  const out: StateAccount = { nonce: String(record.nonce), main: String(record.main), gas: String(record.gas) }
  const code = world.getCodeByHash(record.codeHash)
  if (code.length > 0) out.code = toHex(code)
  const slots = [...world.storageEntries(address, height)].sort(([a], [b]) => (a < b ? -1 : 1))
  if (slots.length > 0) out.storage = Object.fromEntries(slots.map(([slot, value]) => [`0x${slot}`, `0x${toHexRaw(value).padStart(64, '0')}`]))
  return out
}

/**
 * Checks and decodes a state document: ours (any field wrong is named), or an Anvil
 * state. Throws {@link UnsupportedVersionError} for another version of ours, and
 * {@link PersistenceError} for anything else that is not a state document.
 */
export function parseStateDocument(input: unknown): ParsedState {
  const doc = object(input, 'the state document')
  if (doc.format === undefined && doc.version === undefined && typeof doc.accounts === 'object') return parseAnvil(doc)
  if (doc.format !== STATE_DOCUMENT_FORMAT) throw new PersistenceError(`not a state document: format ${JSON.stringify(doc.format)} (expected "${STATE_DOCUMENT_FORMAT}")`)
  if (doc.version !== STATE_DOCUMENT_VERSION) {
    throw new UnsupportedVersionError(`state document version ${JSON.stringify(doc.version)} is not supported; this dualnet reads version ${STATE_DOCUMENT_VERSION}`)
  }
  const head = object(doc.head, 'head')
  const timestamp = head.timestamp
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) throw invalid('head.timestamp', 'a whole number of seconds')
  const accounts = Object.entries(object(doc.accounts, 'accounts')).map(([address, value]) => {
    const where = `accounts.${address}`
    const a = object(value, where)
    const offset = a.unboundOffset
    if (offset !== undefined && (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0)) throw invalid(`${where}.unboundOffset`, 'a whole number of seconds')
    return {
      address: hexBytes(address, where, 20),
      nonce: amount(a.nonce, `${where}.nonce`),
      main: amount(a.main, `${where}.main`),
      gas: amount(a.gas, `${where}.gas`),
      code: a.code === undefined ? new Uint8Array(0) : fromHex(hexBytes(a.code, `${where}.code`)),
      storage: storage(a.storage, where),
      unboundOffset: offset as number | undefined,
    }
  })
  const list = doc.allowances ?? []
  if (!Array.isArray(list)) throw invalid('allowances', 'an array')
  const allowances = list.map((item, i) => {
    const a = object(item, `allowances[${i}]`)
    if (a.token !== 'main' && a.token !== 'gas') throw invalid(`allowances[${i}].token`, '"main" or "gas"')
    return {
      token: a.token as 'main' | 'gas',
      owner: hexBytes(a.owner, `allowances[${i}].owner`, 20),
      spender: hexBytes(a.spender, `allowances[${i}].spender`, 20),
      amount: amount(a.amount, `allowances[${i}].amount`),
    }
  })
  return { timestamp, accounts, allowances }
}

/** Anvil's SerializableState: accounts with `balance` (wei, the gas token), `nonce`, `code`, `storage`. */
function parseAnvil(doc: Record<string, unknown>): ParsedState {
  const accounts = Object.entries(object(doc.accounts, 'accounts')).map(([address, value]) => {
    const where = `accounts.${address}`
    const a = object(value, where)
    return {
      address: hexBytes(address, where, 20),
      nonce: amount(a.nonce ?? 0, `${where}.nonce`),
      main: undefined,
      gas: amount(a.balance ?? '0x0', `${where}.balance`),
      code: a.code === undefined ? new Uint8Array(0) : fromHex(hexBytes(a.code, `${where}.code`)),
      storage: storage(a.storage, where),
      unboundOffset: undefined,
    }
  })
  const block = doc.block as { timestamp?: unknown } | undefined
  const timestamp = block?.timestamp === undefined ? undefined : Number(amount(block.timestamp, 'block.timestamp'))
  return { timestamp, accounts, allowances: [] }
}

/**
 * The JSON value in `bytes`: gzipped JSON (what anvil_dumpState carries) or plain
 * JSON, UTF-8. Throws {@link PersistenceError} when it is neither.
 */
export function stateFromBytes(bytes: Uint8Array): unknown {
  try {
    const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : Buffer.from(bytes).toString('utf8')
    return JSON.parse(text) as unknown
  } catch (err) {
    throw new PersistenceError(`not a state document: ${(err as Error).message}`, { cause: err })
  }
}

/**
 * Writes `state` into `world` at `height`: each listed account replaces the one
 * there (balances, nonce, code), each listed storage slot and allowance is set;
 * entries not listed are left as they are (Anvil's anvil_loadState merges the same way).
 */
export function applyState(world: WorldState, state: ParsedState, height: number): void {
  for (const a of state.accounts) {
    let codeHash: string | undefined
    if (a.code.length > 0) {
      codeHash = toHexRaw(keccak256(a.code))
      world.putCode(codeHash, a.code)
    }
    const main = a.main ?? world.getAccount(a.address, height).main
    world.setAccount(a.address, { nonce: a.nonce, main, gas: a.gas, codeHash }, height)
    for (const [slot, value] of a.storage) world.setStorage(a.address, slot, value, height)
    if (a.unboundOffset !== undefined) world.setUnboundOffset(a.address, a.unboundOffset, height)
  }
  for (const a of state.allowances) world.setAllowance(a.token, a.owner, a.spender, a.amount, height)
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(what, 'an object')
  return value as Record<string, unknown>
}

function invalid(what: string, expected: string): PersistenceError {
  return new PersistenceError(`invalid state document: ${what} must be ${expected}`)
}

/** 0x-hex of whole bytes (exactly `length` when given), as raw lower-case hex without 0x. */
function hexBytes(value: unknown, what: string, length?: number): string {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value) || (length !== undefined && value.length !== 2 + 2 * length)) {
    throw invalid(what, length === undefined ? '0x-hex bytes' : `0x-hex of ${length} bytes`)
  }
  return value.slice(2).toLowerCase()
}

/** A non-negative integer: decimal string, 0x-quantity or safe number. */
function amount(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^(?:\d+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value)
  throw invalid(what, 'a non-negative integer (decimal string)')
}

/** Storage slots: 32-byte keys, values of up to 32 bytes stored without leading zeros. */
function storage(value: unknown, where: string): [string, Uint8Array][] {
  if (value === undefined) return []
  return Object.entries(object(value, `${where}.storage`)).map(([slot, v]) => {
    const key = hexBytes(`0x${slot.slice(2).padStart(64, '0')}`, `${where}.storage slot ${slot}`, 32)
    if (!slot.startsWith('0x')) throw invalid(`${where}.storage slot ${slot}`, '0x-hex')
    const bytes = fromHex(hexBytes(typeof v === 'string' && v.length % 2 === 1 ? `0x0${v.slice(2)}` : v, `${where}.storage[${slot}]`))
    if (bytes.length > 32) throw invalid(`${where}.storage[${slot}]`, 'at most 32 bytes')
    let i = 0
    while (i < bytes.length && bytes[i] === 0) i++
    return [key, bytes.subarray(i)]
  })
}
