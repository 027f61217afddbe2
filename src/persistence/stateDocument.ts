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
import { constants as bufferConstants } from 'node:buffer'
import { gunzip, gunzipSync } from 'node:zlib'
import { keccak256 } from '../util/hash.ts'
import { fromHex, toHex, toHexRaw, type Hex } from '../util/hex.ts'
import type { AccountRecord, WorldState } from '../state/worldState.ts'
import type { Chain } from '../chain/chain.ts'
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
  if (doc.format !== STATE_DOCUMENT_FORMAT) throw new PersistenceError(`not a state document: format ${shown(doc.format)} (expected "${STATE_DOCUMENT_FORMAT}")`)
  if (doc.version !== STATE_DOCUMENT_VERSION) {
    throw new UnsupportedVersionError(`state document version ${shown(doc.version)} is not supported; this dualnet reads version ${STATE_DOCUMENT_VERSION}`)
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
 * What reading a state document's bytes may take: `stateLimit`, the most bytes of
 * JSON (after inflating a gzipped document), and `jsonDepthLimit`, the deepest
 * nesting of arrays and objects in it. The engine's longest string (512 MiB on
 * 64-bit Node) bounds `stateLimit` in any case.
 */
export interface StateReadLimits {
  stateLimit: number
  jsonDepthLimit: number
}

/** The limits of a read that names none: the engine's longest string, and the JSON-RPC depth default. */
const UNLIMITED: StateReadLimits = { stateLimit: bufferConstants.MAX_STRING_LENGTH, jsonDepthLimit: 100 }

/**
 * The JSON value in `bytes`: gzipped JSON (what anvil_dumpState carries) or plain
 * JSON, UTF-8, within `limits` (checked while inflating, and on the inflated text
 * before it is parsed). Throws {@link PersistenceError} when it is neither, or passes
 * a limit (the message names the limit's option). Synchronous: for files; a server
 * reads with {@link readStateBytes}.
 */
export function stateFromBytes(bytes: Uint8Array, limits: StateReadLimits = UNLIMITED): unknown {
  const max = maxBytes(limits)
  let json: Uint8Array
  try {
    json = isGzip(bytes) ? gunzipSync(bytes, { maxOutputLength: max + 1, chunkSize: INFLATE_CHUNK }) : bytes
  } catch (err) {
    throw inflateError(err, limits)
  }
  checkSize(json, limits)
  if (deepestAt(json, 0, json.length, { depth: 0, inString: false, escaped: false }, limits.jsonDepthLimit)) throw tooDeep(limits)
  return parseJson(json)
}

/**
 * {@link stateFromBytes} without holding the event loop: the inflating runs on
 * libuv's threads and stops at the limit, and the depth scan yields between chunks.
 * Only the final JSON.parse of at most `stateLimit` bytes is one synchronous step.
 */
export async function readStateBytes(bytes: Uint8Array, limits: StateReadLimits): Promise<unknown> {
  const max = maxBytes(limits)
  let json: Uint8Array
  if (isGzip(bytes)) {
    json = await new Promise<Buffer>((resolve, reject) => {
      gunzip(bytes, { maxOutputLength: max + 1, chunkSize: INFLATE_CHUNK }, (err, out) => (err === null ? resolve(out) : reject(inflateError(err, limits))))
    })
  } else json = bytes
  checkSize(json, limits)
  const scan = { depth: 0, inString: false, escaped: false }
  for (let at = 0; at < json.length; at += SCAN_CHUNK) {
    if (deepestAt(json, at, Math.min(at + SCAN_CHUNK, json.length), scan, limits.jsonDepthLimit)) throw tooDeep(limits)
    if (at + SCAN_CHUNK < json.length) await new Promise(setImmediate)
  }
  return parseJson(json)
}

/** Inflated bytes per zlib step: 1 MiB, so that a large document costs few turns of the event loop (zlib's default is 16 KiB). */
const INFLATE_CHUNK = 1 << 20

/** Bytes of the depth scan between two yields (about a millisecond). */
const SCAN_CHUNK = 1 << 20

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b
}

function maxBytes(limits: StateReadLimits): number {
  return Math.min(limits.stateLimit, bufferConstants.MAX_STRING_LENGTH)
}

function tooLarge(limits: StateReadLimits): PersistenceError {
  return new PersistenceError(`state document larger than ${maxBytes(limits)} bytes of JSON (option stateLimit)`)
}

function tooDeep(limits: StateReadLimits): PersistenceError {
  return new PersistenceError(`state document nested deeper than ${limits.jsonDepthLimit} levels (option jsonDepthLimit)`)
}

function checkSize(json: Uint8Array, limits: StateReadLimits): void {
  if (json.length > maxBytes(limits)) throw tooLarge(limits)
}

/** zlib's refusal past `maxOutputLength` is the size limit; its other errors say the gzip is broken. */
function inflateError(err: unknown, limits: StateReadLimits): PersistenceError {
  const code = (err as { code?: unknown }).code
  if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) return tooLarge(limits)
  return new PersistenceError(`not a state document: broken gzip (${(err as Error).message})`, { cause: err })
}

/** JSON.parse of UTF-8 `json`, with a message of our own (the engine's quotes the input). */
function parseJson(json: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8')) as unknown
  } catch (err) {
    throw new PersistenceError('not a state document: the bytes are not JSON (gzipped or plain)', { cause: err })
  }
}

/**
 * Scans `json[from..to)` for nesting, continuing `state` (an earlier chunk's); true
 * once arrays and objects nest deeper than `limit`. Works on the bytes: the
 * structural characters are ASCII, which UTF-8 never uses inside a longer sequence.
 */
function deepestAt(json: Uint8Array, from: number, to: number, state: { depth: number; inString: boolean; escaped: boolean }, limit: number): boolean {
  let { depth, inString, escaped } = state
  for (let i = from; i < to; i++) {
    const c = json[i]!
    if (inString) {
      if (escaped) escaped = false
      else if (c === 0x5c) escaped = true
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  state.depth = depth
  state.inString = inString
  state.escaped = escaped
  return false
}

/**
 * Writes `state` into `world` at `height`: each listed account replaces the one
 * there (balances, nonce, code), each listed storage slot and allowance is set;
 * entries not listed are left as they are (Anvil's anvil_loadState merges the same way).
 */
export function applyState(world: WorldState, state: ParsedState, height: number): void {
  // Documents often repeat one code (proxies, clones): each distinct code is hashed once.
  const hashes = new Map<string, string>()
  for (const a of state.accounts) {
    let codeHash: string | undefined
    if (a.code.length > 0) {
      const code = toHexRaw(a.code)
      codeHash = hashes.get(code)
      if (codeHash === undefined) {
        hashes.set(code, (codeHash = toHexRaw(keccak256(a.code))))
        world.putCode(codeHash, a.code)
      }
    }
    const main = a.main ?? world.getAccount(a.address, height).main
    world.setAccount(a.address, { nonce: a.nonce, main, gas: a.gas, codeHash }, height)
    for (const [slot, value] of a.storage) world.setStorage(a.address, slot, value, height)
    if (a.unboundOffset !== undefined) world.setUnboundOffset(a.address, a.unboundOffset, height)
  }
  for (const a of state.allowances) world.setAllowance(a.token, a.owner, a.spender, a.amount, height)
}

/** A field's value in a message: its JSON, or `missing`. */
function shown(value: unknown): string {
  return value === undefined ? 'missing' : JSON.stringify(value)
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
