/**
 * The checks of every value a fork takes from its remote, each against its type's range,
 * before the fork uses or keeps it: block numbers and timestamps, quantities, nonces,
 * chain ids, storage values, code, REST amounts and texts. A remote is not trusted: an
 * unchecked answer once wedged the devnet (a block number of 2^80 or "0x-5"), poisoned it
 * (a 33-byte storage value kept, every later read failing with an engine's RangeError) or
 * was served as is (a chain id of 2^160 - 1 rounded, a million-digit balance); issue 35.
 *
 * Each check throws {@link ForkRemoteError} naming the remote call, the field and what was
 * wrong (`the answer's number "0x-5" is not a quantity (0x and hex digits)`), never an
 * engine's text, so the start, the read or the reset that asked fails whole and keeps
 * nothing of the answer.
 */
import { describeValue } from '../errors/describe.ts'
import { MAIN_TOTAL_SUPPLY } from '../core/constants.ts'
import { ForkRemoteError, type RemoteCall } from './remote.ts'

/** Where an answer came from: the remote's URL and the call it answered (named by each refusal). */
export interface Answered {
  url: string
  call: RemoteCall
}

/** The range of a whole number: its bounds, and how a refusal names the largest. */
export interface Range {
  min: bigint
  max: bigint
  /** The largest value and why it is the largest: `4294967295, the largest height a native block header holds (u32, reference §5.1)`. */
  says: string
}

const U32_MAX = 2n ** 32n - 1n
const U64_MAX = 2n ** 64n - 1n

/** A native block's height: the header holds it in a u32 (reference §5.1). The fork block is a native block. */
export const NATIVE_HEIGHT: Range = { min: 0n, max: U32_MAX, says: '4294967295, the largest height a native block header holds (u32, reference §5.1)' }
/** An EVM block number (eth_blockNumber): a u64, as go-ethereum's and Anvil's (`expected a 8 byte hex string`). */
export const EVM_BLOCK_NUMBER: Range = { min: 0n, max: U64_MAX, says: '18446744073709551615, the largest EVM block number (u64)' }
/** A block timestamp: the native header holds it in a u32 (reference §5.1). */
export const TIMESTAMP: Range = { min: 0n, max: U32_MAX, says: '4294967295, the largest timestamp a native block header holds (u32, reference §5.1)' }
/** An EVM quantity such as a balance: one 256-bit word. */
export const WORD: Range = { min: 0n, max: 2n ** 256n - 1n, says: '2^256 - 1, the largest EVM word' }
/** An account nonce: at most 2^64 - 1 (EIP-2681). */
export const NONCE: Range = { min: 0n, max: U64_MAX, says: '2^64 - 1, the largest nonce (EIP-2681)' }
/**
 * An EIP-155 chain id, as the devnet's `chainId` option takes one: 1 to 2^53 - 1, so that
 * it is exact as a JavaScript number (a chain id of 2^160 - 1 used to be served rounded).
 */
export const CHAIN_ID: Range = { min: 1n, max: 2n ** 53n - 1n, says: '9007199254740991 (2^53 - 1), the largest chain id the devnet holds exactly (EIP-155 ids start at 1)' }
/** A REST network id: a u32 on the node (its P2PNode.NetworkId). */
export const NETWORK_ID: Range = { min: 0n, max: U32_MAX, says: '4294967295, the largest network id (u32)' }
/** An allowance in v1 units (the real node's allowancev2 answers by its v1 handler): v1 amounts fit a u64 (reference §2.5). */
export const V1_AMOUNT: Range = { min: 0n, max: U64_MAX, says: '2^64 - 1, the largest v1 amount (u64, reference §2.5)' }
/** An allowance in v2 units: one 256-bit word at most. */
export const V2_AMOUNT: Range = { min: 0n, max: 2n ** 256n - 1n, says: '2^256 - 1' }

/** A main-token balance in v2 units: at most the token's total supply, 1e18 (reference §4.1). */
export const MAIN_BALANCE: Range = { min: 0n, max: MAIN_TOTAL_SUPPLY, says: "1000000000000000000, the main token's total supply in v2 units (reference §4.1)" }

/** Longest EVM code a remote account may hold: EIP-170's 24,576 bytes. */
export const MAX_CODE_SIZE = 24_576
/** Longest storage value: one 32-byte word. */
export const STORAGE_WORD = 32
/** Longest client version string taken (go-ethereum's are about 50 characters). */
export const MAX_CLIENT_VERSION = 1_024

/** Throws the refusal of `value`, the answer (or its `field`) of `from`, saying `why`. */
export function refuseAnswer(from: Answered, field: string | undefined, value: unknown, why: string): never {
  const what = field === undefined ? 'the answer' : `the answer's ${field}`
  throw new ForkRemoteError(from.url, from.call, `${what} ${describeValue(value)} ${why}`)
}

/** `text` as a bigint in `range`, or the reason it is not one. Digits are counted before BigInt runs: a million-digit answer costs nothing. */
function inRange(text: string, radix: 16 | 10, range: Range): bigint | string {
  const digits = text.replace(/^0+(?=.)/, '')
  const widest = (radix === 16 ? range.max.toString(16) : range.max.toString()).length
  const n = digits.length > widest ? undefined : BigInt(radix === 16 ? `0x${digits}` : digits)
  if (n === undefined || n > range.max) return `is above ${range.says}`
  if (n < range.min) return `is below ${range.min}`
  return n
}

/** A JSON-RPC quantity (`0x` and hex digits) in `range`. Throws {@link ForkRemoteError}. */
export function remoteQuantity(value: unknown, from: Answered, range: Range, field?: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) refuseAnswer(from, field, value, 'is not a quantity (0x and hex digits)')
  const n = inRange(value.slice(2), 16, range)
  return typeof n === 'bigint' ? n : refuseAnswer(from, field, value, n)
}

/** A decimal amount (a REST balance: a string of digits) in `range`. Throws {@link ForkRemoteError}. */
export function remoteDecimal(value: unknown, from: Answered, range: Range, field?: string): bigint {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) refuseAnswer(from, field, value, 'is not a decimal amount (a string of digits)')
  const n = inRange(value, 10, range)
  return typeof n === 'bigint' ? n : refuseAnswer(from, field, value, n)
}

/** A whole JSON number in `range` (a REST network id). Throws {@link ForkRemoteError}. */
export function remoteWholeNumber(value: unknown, from: Answered, range: Range, field?: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) refuseAnswer(from, field, value, 'is not a whole number')
  if (BigInt(value) < range.min) refuseAnswer(from, field, value, `is below ${range.min}`)
  if (BigInt(value) > range.max) refuseAnswer(from, field, value, `is above ${range.says}`)
  return value
}

/** JSON-RPC data (`0x` and pairs of hex digits) of at most `maxBytes` bytes, `what` naming it. Throws {@link ForkRemoteError}. */
export function remoteData(value: unknown, from: Answered, maxBytes: number, what: string, field?: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) refuseAnswer(from, field, value, 'is not hex data (0x and pairs of hex digits)')
  const size = (value.length - 2) / 2
  if (size > maxBytes) refuseAnswer(from, field, value, `is ${size} bytes, more than ${what} holds (${maxBytes})`)
  return new Uint8Array(Buffer.from(value.slice(2), 'hex'))
}

/** A 32-byte hash (`0x` and 64 hex digits). Throws {@link ForkRemoteError}. */
export function remoteHash(value: unknown, from: Answered, field?: string): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) refuseAnswer(from, field, value, 'is not a 32-byte hash (0x and 64 hex digits)')
  return value
}

/** A string of at most `maxLength` characters. Throws {@link ForkRemoteError}. */
export function remoteText(value: unknown, from: Answered, maxLength: number, field?: string): string {
  if (typeof value !== 'string') refuseAnswer(from, field, value, 'is not a string')
  if (value.length > maxLength) refuseAnswer(from, field, value, `is ${value.length} characters long, more than ${maxLength}`)
  return value
}

/** net_version: the decimal string of a u64 (reference §6.2: the chain id's, "12345" on solo). Throws {@link ForkRemoteError}. */
export function remoteNetVersion(value: unknown, from: Answered): string {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) refuseAnswer(from, undefined, value, 'is not a decimal string')
  const n = inRange(value, 10, { min: 0n, max: U64_MAX, says: '18446744073709551615 (u64)' })
  return typeof n === 'bigint' ? value : refuseAnswer(from, undefined, value, n)
}

/** The fields of an eth block object the fork takes (fork/connect.ts RemoteBlock), checked. */
export interface CheckedBlock {
  number: string
  hash: string
  parentHash: string
  timestamp: string
  /** `number` as a height. */
  height: number
}

/**
 * An eth_getBlockByNumber answer that is a block: an object whose `number` is `expected`
 * (a native height), with 32-byte `hash` and `parentHash` and a u32 `timestamp`. Throws
 * {@link ForkRemoteError}.
 */
export function remoteBlock(value: unknown, from: Answered, expected: bigint): CheckedBlock {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuseAnswer(from, undefined, value, 'is not a block object')
  const block = value as Record<string, unknown>
  const number = remoteQuantity(block.number, from, NATIVE_HEIGHT, 'number')
  if (number !== expected) refuseAnswer(from, 'number', block.number, `is not the block asked for (0x${expected.toString(16)})`)
  remoteQuantity(block.timestamp, from, TIMESTAMP, 'timestamp')
  return {
    number: block.number as string,
    hash: remoteHash(block.hash, from, 'hash'),
    parentHash: remoteHash(block.parentHash, from, 'parentHash'),
    timestamp: block.timestamp as string,
    height: Number(number),
  }
}
