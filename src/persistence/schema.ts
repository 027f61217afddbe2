/**
 * The database schema of a persisted chain (version {@link SCHEMA_VERSION}): key
 * layout and the encoding of every value. Values are UTF-8 strings (hex, decimal or
 * JSON), so any abstract-level database with string keys and values holds them.
 *
 * Keys (heights as 10 decimal digits, so that keys sort by height):
 * - `m:schema` -> schema version; `m:config` -> the chain-shaping options ({@link StoredConfig});
 *   `m:tip` -> height, pending empty blocks, the clock and the block settings ({@link StoredTip}).
 * - `b:<height>` -> one built block with its transactions, execution records and EVM block environment ({@link StoredBlock}).
 * - `c:<code hash>` -> EVM code (hex).
 * - `a:<address>:<height>`, `s:<address><slot>:<height>`, `l:<token>:<owner>:<spender>:<height>`,
 *   `u:<address>:<height>` -> the version of an account, storage slot, allowance or
 *   unbound-gas offset written at that height, or `-` for a deletion: the state is
 *   kept per height, as the ledger keeps it, so reads at old heights survive a restart.
 * - `p:<sequence>:<raw hash>` -> a transaction waiting in the pool ({@link StoredTransaction}),
 *   the sequence (10 digits) growing with each entry into the pool, so that keys sort in
 *   the pool's order (version 2; version 1 had no pool entries and reads as an empty pool).
 * - A forked chain only, one key per value fetched from the remote (version 3), so that a
 *   resumed fork needs the remote only for what it never read: `f:a:<address>` (account),
 *   `f:c:<code hash>`, `f:s:<address><slot>`, and with REST `f:l:<token>:<owner>:<spender>`,
 *   `f:n:<address>:<key>`, `f:d:<address>`, `f:u:<address>` -> the value as JSON, in the form
 *   of its entry in ForkValues (fork/source.ts); `f:h:<hash>` -> one kept JSON-RPC history
 *   answer `[method, params, answer]` and `f:r:<hash>` -> one kept REST history answer
 *   `[path, Error, Result as JSON text]` (the hash: the first 32 hex digits of the keccak-256
 *   of the call's key, fork/history.ts `historyKey`, or of the path). Each is put once, in
 *   the batch after its fetch; a history answer the bounded cache drops (fork/answerCache.ts)
 *   is deleted in the same way, so the database holds at most what memory holds.
 *   Version 2 held them as three blobs (`f:values`, `f:history`, `f:rest`) rewritten whole
 *   after each fetch, n² bytes for n fetches; the first batch written to such a database
 *   replaces them by the keys above (persistence/store.ts).
 * - No key holds the address index of Otterscan's search (chain/addressIndex.ts): it is
 *   derived from the blocks under `b:` and rebuilt as they load (a few µs a block, under
 *   1 % of mining one), so every database, those written before it included, has it.
 */
import { RLP } from '@ethereumjs/rlp'
import type { EmptyRun } from '../chain/emptyRuns.ts'
import type { ClockState } from '../chain/clock.ts'
import { encodeEnvironment, type StoredBlockSettings, type StoredEnvironment } from './environment.ts'
import type { ExecutionRecord } from '../chain/record.ts'
import type { ChainTransaction } from '../chain/transaction.ts'
import type { UnboundGasRule } from '../native/unboundGas.ts'
import type { BlockHeader } from '../native/blockHeader.ts'
import type { StoredFork } from '../fork/connect.ts'
import type { ForkValueKind } from '../fork/source.ts'
import { serializeUnsignedHeader } from '../native/blockHeader.ts'
import type { BlockEnvironment } from '../evm/execution.ts'
import type { LegacyTransaction } from '../evm/legacyTransaction.ts'
import { BinaryReader } from '../native/binaryReader.ts'
import type { AccountRecord, StateKind, StateValue } from '../state/worldState.ts'
import { keccak256 } from '../util/hash.ts'
import { bytesToBigInt, fromHex, toHexRaw } from '../util/hex.ts'

/** Version of the layout above, written by this dualnet. */
export const SCHEMA_VERSION = 3
/**
 * Versions this dualnet reads: version 1 is version 2 without pool entries; version 2
 * holds a fork's values in three blobs. Both are marked version 3 by the first batch
 * written to them, which also moves a fork's blobs to keys of their own. Any other
 * version is refused.
 */
export const READABLE_SCHEMA_VERSIONS: readonly string[] = ['1', '2', '3']

/**
 * Version and format tag of the state document (stateDocument.ts, README "State that
 * lasts"); kept here, with the schema's, so that the package exports them without
 * loading the document code.
 */
export const STATE_DOCUMENT_VERSION = 1
export const STATE_DOCUMENT_FORMAT = 'dualnet-state'

export const SCHEMA_KEY = 'm:schema'
export const CONFIG_KEY = 'm:config'
export const TIP_KEY = 'm:tip'
/** Version 2: a forked chain's values fetched from the remote (ForkValues JSON, fork/source.ts), read and replaced by per-value keys. */
export const FORK_VALUES_KEY = 'f:values'
/** Version 2: a forked chain's history answers fetched from the remote (HistoryValues JSON, fork/history.ts), read and replaced. */
export const FORK_HISTORY_KEY = 'f:history'
/** Version 2: a forked chain's REST history answers fetched from the remote (RestHistoryValues JSON, fork/restHistory.ts), read and replaced. */
export const FORK_REST_HISTORY_KEY = 'f:rest'

const FORK_VALUE_PREFIX: Record<ForkValueKind, string> = {
  accounts: 'f:a:',
  code: 'f:c:',
  storage: 'f:s:',
  allowances: 'f:l:',
  nativeStorage: 'f:n:',
  contracts: 'f:d:',
  unboundOffsets: 'f:u:',
}
/** Every kind of fork value with its key prefix. */
export const FORK_VALUE_KINDS = Object.entries(FORK_VALUE_PREFIX) as [ForkValueKind, string][]
/** Prefix of a kept JSON-RPC history answer's key. */
export const FORK_HISTORY_PREFIX = 'f:h:'
/** Prefix of a kept REST history answer's key. */
export const FORK_REST_PREFIX = 'f:r:'

/** `f:<kind letter>:<key>`: a fork value's key. */
export function forkValueKey(kind: ForkValueKind, key: string): string {
  return FORK_VALUE_PREFIX[kind] + key
}

/** `<prefix><hash>` of a history answer: `id` (a call's key or a REST path, any length) hashed to 32 hex digits, so that keys stay short. */
export function forkAnswerKey(prefix: typeof FORK_HISTORY_PREFIX | typeof FORK_REST_PREFIX, id: string): string {
  return prefix + toHexRaw(keccak256(new TextEncoder().encode(id))).slice(0, 32)
}

/** The range of every key starting with `prefix` (which ends with ':'). */
export function prefixRange(prefix: string): { gte: string; lt: string } {
  return { gte: prefix, lt: `${prefix.slice(0, -1)};` }
}
/** What a deleted state version is stored as. */
export const DELETED = '-'

/** The options that shape a chain: a database made with others is refused. */
export interface StoredConfig {
  chainId: number
  /** @ethereumjs/common hardfork name. */
  hardfork: string
  /** The bookkeeper's compressed P-256 public key, hex. */
  bookkeeper: string
  /** Unbound-gas accrual, or `null` when off. */
  unboundGas: UnboundGasRule | null
  /** The remote a forked chain forks and what it took from it (fork/connect.ts); absent for a chain of its own. */
  fork?: StoredFork
}

/** Where the chain stands beyond its built blocks. */
export interface StoredTip {
  /** Height of the latest block, built or pending. */
  height: number
  /** Height of the latest built (stored) block. */
  built: number
  /** Pending empty blocks above `built`. */
  empty: EmptyRun[]
  clock: ClockState
  /** The block settings of blocks to come; absent in databases written before they were stored (the chain's own then). */
  settings?: StoredBlockSettings
}

/**
 * One transaction as stored: an EVM one as its RLP and sender (impersonated ones carry
 * no real signature), a native one raw with the signers it was accepted with, a
 * genesis system transaction raw.
 */
export type StoredTransaction = { evm: string; from: string } | { native: string; signers: string[] } | { genesis: string }

/** One execution record as stored; amounts as decimal strings, bytes as hex. */
export interface StoredRecord {
  state: 0 | 1
  gasUsed: string
  gasConsumed: string
  cumulativeGasUsed: string
  logs: [address: string, topics: string[], data: string][]
  firstLogIndex: number
  contractAddress: string | null
  returnValue: string
  /** Native notifications; integer states as `{ int: '<decimal>' }`. */
  notify: [contract: string, states: (string | { int: string })[]][]
}

/** One built block as stored. */
export interface StoredBlock {
  /** Raw block hash, hex: checked against the header on reading. */
  hash: string
  /** Unsigned header (§5.1), hex. */
  header: string
  transactions: StoredTransaction[]
  records: StoredRecord[]
  /** The EVM block environment it was mined in; absent for blocks that recorded none, and in databases written before it was stored. */
  env?: StoredEnvironment
}

const STATE_PREFIX: Record<StateKind, string> = { account: 'a:', storage: 's:', allowance: 'l:', unbound: 'u:' }
/** Every state kind with its key prefix, in the order the store reads them. */
export const STATE_KINDS = Object.entries(STATE_PREFIX) as [StateKind, string][]

/** `b:<height>`. */
export function blockKey(height: number): string {
  return `b:${pad(height)}`
}

/** `p:<sequence>:<raw hash>`: a pool entry. */
export function poolKey(sequence: number, hash: string): string {
  return `p:${pad(sequence)}:${hash}`
}

/** The sequence and raw hash of a pool key, or `undefined` if it is malformed. */
export function parsePoolKey(key: string): { sequence: number; hash: string } | undefined {
  const match = /^p:(\d{10}):([0-9a-f]{64})$/.exec(key)
  return match === null ? undefined : { sequence: Number(match[1]), hash: match[2]! }
}

/** `c:<code hash>`. */
export function codeKey(hash: string): string {
  return `c:${hash}`
}

/** Key of the version of `key` (as WorldState names it) written at `height`. */
export function stateKey(kind: StateKind, key: string, height: number): string {
  return `${STATE_PREFIX[kind]}${key}:${pad(height)}`
}

/** The range of every stored version of `key` at `from` or above (for deleting them). */
export function stateRange(kind: StateKind, key: string, from: number): { gte: string; lt: string } {
  return { gte: stateKey(kind, key, from), lt: `${STATE_PREFIX[kind]}${key};` }
}

/** Splits a stored state key (without its prefix) into the entry's key and the height. */
export function parseStateKey(rest: string): { key: string; height: number } | undefined {
  const at = rest.length - 11
  if (at <= 0 || rest[at] !== ':') return undefined
  const height = Number(rest.slice(at + 1))
  return Number.isInteger(height) ? { key: rest.slice(0, at), height } : undefined
}

function pad(height: number): string {
  return String(height).padStart(10, '0')
}

/** A state value as stored. */
export function encodeStateValue(kind: StateKind, value: StateValue | undefined): string {
  if (value === undefined) return DELETED
  switch (kind) {
    case 'account': {
      const a = value as AccountRecord
      return `${a.nonce},${a.gas},${a.main},${a.codeHash ?? ''}`
    }
    case 'storage':
      return toHexRaw(value as Uint8Array)
    default:
      return String(value)
  }
}

/** A stored state value read back. Throws on a malformed one. */
export function decodeStateValue(kind: StateKind, text: string): StateValue | undefined {
  if (text === DELETED) return undefined
  switch (kind) {
    case 'account': {
      const [nonce, gas, main, codeHash, extra] = text.split(',')
      if (codeHash === undefined || extra !== undefined) throw new Error(`malformed account ${JSON.stringify(text)}`)
      return { nonce: BigInt(nonce!), gas: BigInt(gas!), main: BigInt(main!), codeHash: codeHash === '' ? undefined : codeHash }
    }
    case 'storage':
      return strictHex(text)
    case 'allowance':
      return BigInt(text)
    case 'unbound': {
      const n = Number(text)
      if (!Number.isSafeInteger(n)) throw new Error(`malformed offset ${JSON.stringify(text)}`)
      return n
    }
  }
}

/** Hex without 0x to bytes; throws on anything else. */
export function strictHex(text: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) throw new Error(`malformed hex ${JSON.stringify(text.slice(0, 40))}`)
  return fromHex(text)
}

/** A built block as stored. */
export function encodeBlock(block: {
  hash: Uint8Array
  header: BlockHeader
  transactions: readonly ChainTransaction[]
  records: readonly ExecutionRecord[]
  env?: BlockEnvironment | undefined
}): string {
  const stored: StoredBlock = {
    hash: toHexRaw(block.hash),
    header: toHexRaw(serializeUnsignedHeader(block.header)),
    transactions: block.transactions.map(storedTransaction),
    records: block.records.map(encodeRecord),
  }
  if (block.env !== undefined) stored.env = encodeEnvironment(block.env)
  return JSON.stringify(stored)
}

/**
 * A transaction as stored. What re-creates it exactly, with its hash: an EVM one's RLP
 * with its sender (an impersonated one's placeholder signature recovers nothing), a
 * native one's raw bytes with the signers it was accepted with.
 */
export function storedTransaction(tx: ChainTransaction): StoredTransaction {
  if (tx.kind === 'evm') return { evm: toHexRaw(tx.tx.rlp), from: toHexRaw(tx.from) }
  if (tx.kind === 'native') return { native: toHexRaw(tx.raw), signers: tx.signers.map(toHexRaw) }
  return { genesis: toHexRaw(tx.raw) }
}

function encodeRecord(r: ExecutionRecord): StoredRecord {
  return {
    state: r.state,
    gasUsed: String(r.gasUsed),
    gasConsumed: String(r.gasConsumed),
    cumulativeGasUsed: String(r.cumulativeGasUsed),
    logs: r.logs.map(([address, topics, data]) => [toHexRaw(address), topics.map(toHexRaw), toHexRaw(data)]),
    firstLogIndex: r.firstLogIndex,
    contractAddress: r.contractAddress === undefined ? null : toHexRaw(r.contractAddress),
    returnValue: toHexRaw(r.returnValue),
    notify: r.notify.map((n) => [toHexRaw(n.contract), n.states.map((s) => (typeof s === 'bigint' ? { int: String(s) } : s))]),
  }
}

/** A stored execution record read back. Throws on a malformed one. */
export function decodeRecord(r: StoredRecord): ExecutionRecord {
  if (r.state !== 0 && r.state !== 1) throw new Error(`malformed record state ${JSON.stringify(r.state)}`)
  return {
    state: r.state,
    gasUsed: BigInt(r.gasUsed),
    gasConsumed: BigInt(r.gasConsumed),
    cumulativeGasUsed: BigInt(r.cumulativeGasUsed),
    logs: r.logs.map(([address, topics, data]) => [strictHex(address), topics.map(strictHex), strictHex(data)]),
    firstLogIndex: r.firstLogIndex,
    contractAddress: r.contractAddress === null ? undefined : strictHex(r.contractAddress),
    returnValue: strictHex(r.returnValue),
    notify: r.notify.map(([contract, states]) => ({
      contract: strictHex(contract),
      states: states.map((s) => (typeof s === 'string' ? s : BigInt(s.int))),
    })),
  }
}

/** The unsigned header (§5.1) read back; bookkeepers are not part of it and come from the caller. */
export function decodeUnsignedHeader(bytes: Uint8Array, bookkeepers: Uint8Array[]): BlockHeader {
  const r = new BinaryReader(bytes)
  const header: BlockHeader = {
    version: r.u32(),
    prevHash: r.bytes(32),
    transactionsRoot: r.bytes(32),
    blockRoot: r.bytes(32),
    timestamp: r.u32(),
    height: r.u32(),
    consensusData: r.u64(),
    consensusPayload: r.varbytes(),
    nextBookkeeper: r.bytes(20),
    bookkeepers,
  }
  if (r.position !== bytes.length) throw new Error('trailing bytes after the header')
  return header
}

/**
 * A stored EVM transaction read back without recovering its sender (stored with it):
 * impersonated transactions carry a placeholder signature that recovers nothing, and
 * a chain of many transactions resumes without one signature recovery each.
 */
export function decodeStoredEvmTransaction(rlp: Uint8Array, from: Uint8Array): LegacyTransaction {
  const fields = RLP.decode(rlp)
  if (!Array.isArray(fields) || fields.length !== 9 || fields.some((f) => !(f instanceof Uint8Array))) {
    throw new Error('malformed legacy transaction')
  }
  const [nonce, gasPrice, gasLimit, to, value, data, v, r, s] = fields as Uint8Array[]
  return {
    nonce: bytesToBigInt(nonce!),
    gasPrice: bytesToBigInt(gasPrice!),
    gasLimit: bytesToBigInt(gasLimit!),
    to: to!.length === 0 ? undefined : to!,
    value: bytesToBigInt(value!),
    data: data!,
    v: bytesToBigInt(v!),
    r: bytesToBigInt(r!),
    s: bytesToBigInt(s!),
    rlp,
    hash: keccak256(rlp),
    from,
  }
}
