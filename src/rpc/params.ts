/**
 * Parsing of JSON-RPC parameters into ledger values (spec: JSON-RPC value types).
 * Every parser throws {@link RpcError} -32602 naming the argument.
 */
import { invalidArgument } from './errors.ts'
import { fromHex } from '../util/hex.ts'
import { parseAnyAddress } from '../controls/address.ts'

const QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/
const HEX = /^0x([0-9a-fA-F]{2})*$/

/** QUANTITY: 0x-hex without leading zeros. */
export function parseQuantity(value: unknown, index: number): bigint {
  if (typeof value !== 'string') throw invalidArgument(index, 'json: cannot unmarshal non-string into Go value of type hexutil.Big')
  if (!value.startsWith('0x')) throw invalidArgument(index, 'hex string without 0x prefix')
  if (value === '0x') throw invalidArgument(index, 'hex string "0x"')
  if (!QUANTITY.test(value)) {
    throw invalidArgument(index, /^0x0[0-9a-fA-F]/.test(value) ? 'hex number with leading zero digits' : 'invalid hex string')
  }
  if (value.length > 66) throw invalidArgument(index, 'hex number > 256 bits')
  return BigInt(value)
}

/** DATA of any length (`0x` allowed). */
export function parseData(value: unknown, index: number): Uint8Array {
  if (typeof value !== 'string') throw invalidArgument(index, 'json: cannot unmarshal non-string into Go value of type hexutil.Bytes')
  if (!value.startsWith('0x')) throw invalidArgument(index, 'hex string without 0x prefix')
  if (value.length % 2 !== 0) throw invalidArgument(index, 'hex string of odd length')
  if (!HEX.test(value)) throw invalidArgument(index, 'invalid hex string')
  return fromHex(value)
}

/** DATA of exactly `length` bytes (20 for addresses, 32 for hashes). */
export function parseFixedData(value: unknown, index: number, length: number, what: string): Uint8Array {
  const bytes = parseData(value, index)
  if (bytes.length !== length) {
    throw invalidArgument(index, `hex string has length ${bytes.length * 2}, want ${length * 2} for ${what}`)
  }
  return bytes
}

/**
 * A storage position (eth_getStorageAt). The real node takes it as a string through
 * go-ethereum's `common.HexToHash` (http/ethrpc/eth/api.go `GetStorageAt`), so a
 * 32-byte keccak mapping slot, leading zeros and odd lengths are accepted as well as
 * a QUANTITY: 1 to 64 hex digits after `0x`, left-padded to 32 bytes.
 */
export function parseStorageSlot(value: unknown, index: number): Uint8Array {
  if (typeof value !== 'string') throw invalidArgument(index, 'json: cannot unmarshal non-string into Go value of type string')
  if (!value.startsWith('0x')) throw invalidArgument(index, 'hex string without 0x prefix')
  const digits = value.slice(2)
  if (!/^[0-9a-fA-F]+$/.test(digits)) throw invalidArgument(index, 'invalid hex string')
  if (digits.length > 64) throw invalidArgument(index, 'hex string longer than 32 bytes')
  return fromHex(digits.padStart(64, '0'))
}

/** 20-byte address. */
export function parseAddress(value: unknown, index: number): Uint8Array {
  return parseFixedData(value, index, 20, 'common.Address')
}

/** 32-byte hash. */
export function parseHash(value: unknown, index: number): Uint8Array {
  return parseFixedData(value, index, 32, 'common.Hash')
}

/** Boolean. */
export function parseBoolean(value: unknown, index: number): boolean {
  if (typeof value !== 'boolean') throw invalidArgument(index, 'json: cannot unmarshal into Go value of type bool')
  return value
}

/** A block reference: a tag, a QUANTITY, or an EIP-1898 object. */
export type BlockReference = { tag: 'latest' | 'earliest' | 'pending' } | { number: bigint } | { hash: Uint8Array }

const TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized'])

/** QUANTITY|TAG (spec), plus `safe`/`finalized` (a solo node is final at once) and EIP-1898 `{ blockNumber | blockHash }`. */
export function parseBlockReference(value: unknown, index: number): BlockReference {
  if (typeof value === 'string') {
    if (TAGS.has(value)) return { tag: value === 'earliest' || value === 'pending' ? value : 'latest' }
    if (value.startsWith('0x')) return { number: parseQuantity(value, index) }
    throw invalidArgument(index, `invalid block number or tag "${value}"`)
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const o = value as Record<string, unknown>
    if (o.blockHash !== undefined) return { hash: parseHash(o.blockHash, index) }
    if (o.blockNumber !== undefined) return parseBlockReference(o.blockNumber, index)
  }
  throw invalidArgument(index, 'json: cannot unmarshal into Go value of type rpc.BlockNumberOrHash')
}

/** A count or time given as a JSON number or a QUANTITY (test helpers send both). */
export function parseNumberish(value: unknown, index: number): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw invalidArgument(index, `expected a whole number, got ${value}`)
    return value
  }
  const n = parseQuantity(value, index)
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidArgument(index, 'number too large')
  return Number(n)
}

/** An address in either rendering (0x hex or Base58), for the devnet controls, checked: anything else is -32602. */
export function parseAddressText(value: unknown, index: number): string {
  if (typeof value !== 'string') throw invalidArgument(index, 'expected an address string (0x hex or Base58)')
  // Checked here so that a bad address is the caller's -32602, as Hardhat answers, not a control's -32000.
  try {
    parseAnyAddress(value)
  } catch (err) {
    throw invalidArgument(index, (err as Error).message)
  }
  return value
}
