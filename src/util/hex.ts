/**
 * Byte and hex conversions used across the ledger and both surfaces.
 * Node's Buffer codec is the fastest hex codec available to us, so it backs these.
 */

import type { Hex } from '../core/rpcObjects.ts'

/** A `0x`-prefixed hex string (one type with the JSON-RPC answers' Hex). */
export type { Hex }

/** Lower-case hex of `bytes`, without prefix. */
export function toHexRaw(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

/** `0x`-prefixed lower-case hex of `bytes` (DATA rendering). */
export function toHex(bytes: Uint8Array): Hex {
  return `0x${toHexRaw(bytes)}`
}

/** Lower-case hex of `bytes` in reverse byte order: the native REST rendering of hashes (reference §1.7). */
export function toReversedHex(bytes: Uint8Array): string {
  return toHexRaw(Uint8Array.from(bytes).reverse())
}

/**
 * Bytes of a hex string with or without `0x`. Throws `TypeError` on odd length or
 * non-hex characters; callers at the surfaces validate first and render their own error.
 */
export function fromHex(hex: string): Uint8Array {
  const body = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) throw new TypeError(`invalid hex: ${hex}`)
  const buf = Buffer.from(body, 'hex')
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
}

/** `0x`-prefixed QUANTITY rendering: hex without leading zeros, `0x0` for zero. */
export function toQuantity(value: bigint | number): Hex {
  return `0x${value.toString(16)}`
}

/**
 * Big-endian unsigned integer of `bytes` (empty = 0). Leading zero bytes are skipped
 * first: a 32-byte EVM word usually holds a small value (a memory offset, a length, an
 * amount) or an address.
 */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  const n = bytes.length
  let first = 0
  while (first < n && bytes[first] === 0) first++
  if (first === n) return 0n
  // Up to 6 significant bytes (a nonce, a gas price or limit, an EIP-155 v, an offset) fit a double exactly: no hex string.
  if (n - first <= 6) {
    let value = 0
    for (let i = first; i < n; i++) value = value * 256 + bytes[i]!
    return BigInt(value)
  }
  return BigInt(`0x${toHexRaw(first === 0 ? bytes : bytes.subarray(first))}`)
}

/** Bytes of `hex`, an even-length lower-case hex string this module made (no prefix, not checked). */
function hexBytes(hex: string): Uint8Array {
  const buf = Buffer.from(hex, 'hex')
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
}

/** The largest value {@link bigIntToBytes} writes from a double (2^53 - 1). */
const SMALL = 0x1fffffffffffffn

/**
 * `value` as big-endian bytes left-padded to `length`. Throws `RangeError` if it does not
 * fit. A value below 2^53 (offsets, lengths, a plain variable's storage slot, most
 * amounts) is written byte by byte from a double, about ten times faster than the hex
 * round trip that larger ones take (hashes, addresses).
 */
export function bigIntToBytes(value: bigint, length: number): Uint8Array {
  if (value < 0n) throw new RangeError('negative value')
  if (value <= SMALL) {
    const out = new Uint8Array(length)
    let n = Number(value)
    for (let i = length - 1; n > 0; i--) {
      if (i < 0) throw new RangeError(`value does not fit in ${length} bytes`)
      out[i] = n % 256
      n = Math.floor(n / 256)
    }
    return out
  }
  const hex = value.toString(16).padStart(length * 2, '0')
  if (hex.length > length * 2) throw new RangeError(`value does not fit in ${length} bytes`)
  return hexBytes(hex)
}

/**
 * A stored value (big-endian, without leading zeros as the state holds it; empty for a
 * slot that holds nothing) as the 32-byte word go-ethereum answers for it. Throws
 * `RangeError` for more than 32 bytes.
 */
export function storageWord(value: Uint8Array): Uint8Array {
  if (value.length > 32) throw new RangeError('a storage value is at most 32 bytes')
  const word = new Uint8Array(32)
  word.set(value, 32 - value.length)
  return word
}

/** `value` (>= 0) as big-endian bytes without leading zeros; zero is empty (RLP's canonical integer). */
export function bigIntToMinimalBytes(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0)
  if (value < 0n) throw new RangeError('negative value')
  const hex = value.toString(16)
  return hexBytes(hex.length % 2 === 0 ? hex : `0${hex}`)
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Concatenation of byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0
  for (const p of parts) length += p.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}
