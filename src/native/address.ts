/**
 * Base58 addresses (reference §3): Bitcoin alphabet over 0x17 ‖ addr20 ‖ checksum4,
 * checksum = first 4 bytes of SHA256d(0x17 ‖ addr20). The same 20 bytes are the EVM
 * 0x address; the REST hex form is the reversed bytes (§1.7).
 *
 * The Base58 codec is a few lines of BigInt arithmetic here rather than a package, so
 * that rendering an address loads nothing; it encodes and decodes exactly as `bs58`
 * (base-x) does, leading zero bytes as leading "1"s (test/base58.test.ts).
 */
import { sha256d } from '../util/hash.ts'
import { bytesEqual, bytesToBigInt, concatBytes, fromHex } from '../util/hex.ts'

/** Version byte of every address: addresses start with "A" and are 34 characters long. */
export const ADDRESS_VERSION = 0x17

/** Why a Base58 address was refused. */
export class InvalidAddressError extends Error {
  override name = 'InvalidAddressError'
}

/** Base58 rendering of 20 address bytes. */
export function toBase58(address: Uint8Array): string {
  const payload = concatBytes(Uint8Array.of(ADDRESS_VERSION), address)
  return encodeBase58(concatBytes(payload, sha256d(payload).subarray(0, 4)))
}

/**
 * The 20 bytes of a Base58 address. Throws {@link InvalidAddressError} when the text
 * is not Base58, the payload is not 25 bytes, the version byte is not 0x17, or the
 * checksum does not match (the node's parser rules, reference §3).
 */
export function fromBase58(text: string): Uint8Array {
  let decoded: Uint8Array
  try {
    decoded = decodeBase58(text)
  } catch (err) {
    throw new InvalidAddressError(`not a Base58 string: ${text}`, { cause: err })
  }
  if (decoded.length !== 25) throw new InvalidAddressError(`address payload must be 25 bytes, got ${decoded.length}`)
  if (decoded[0] !== ADDRESS_VERSION) throw new InvalidAddressError(`address version byte must be 0x17, got 0x${decoded[0]!.toString(16)}`)
  const payload = decoded.subarray(0, 21)
  if (!bytesEqual(sha256d(payload).subarray(0, 4), decoded.subarray(21))) throw new InvalidAddressError('address checksum mismatch')
  return decoded.slice(1, 21)
}

/** The Bitcoin Base58 alphabet. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const DIGIT = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]))

/** Base58 text of `bytes` (Bitcoin alphabet): one "1" per leading zero byte, then the number in base 58. */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  let n = bytesToBigInt(bytes.subarray(zeros))
  let digits = ''
  while (n > 0n) {
    digits = ALPHABET[Number(n % 58n)]! + digits
    n /= 58n
  }
  return '1'.repeat(zeros) + digits
}

/** Bytes of Base58 `text`; throws `Error` on a character outside the alphabet. The inverse of {@link encodeBase58}. */
export function decodeBase58(text: string): Uint8Array {
  let zeros = 0
  while (zeros < text.length && text[zeros] === '1') zeros++
  let n = 0n
  for (const c of text) {
    const digit = DIGIT.get(c)
    if (digit === undefined) throw new Error('Non-base58 character')
    n = n * 58n + digit
  }
  const hex = n === 0n ? '' : n.toString(16)
  return concatBytes(new Uint8Array(zeros), fromHex(hex.length % 2 === 0 ? hex : `0${hex}`))
}
