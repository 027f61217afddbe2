/**
 * Base58 addresses (reference §3): Bitcoin alphabet over 0x17 ‖ addr20 ‖ checksum4,
 * checksum = first 4 bytes of SHA256d(0x17 ‖ addr20). The same 20 bytes are the EVM
 * 0x address; the REST hex form is the reversed bytes (§1.7).
 *
 * The Base58 codec is `bs58`'s, imported with the module: every devnet renders its
 * native accounts' addresses when it is created, and the build bundles bs58 (with
 * base-x) into the start path, where a `require` of the installed package cost a
 * fresh process about 3 ms of module resolution (docs/performance.md, "Cold start").
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import bs58 from 'bs58'
import { sha256d } from '../util/hash.ts'
import { bytesEqual, concatBytes } from '../util/hex.ts'

/** Version byte of every address: addresses start with "A" and are 34 characters long. */
export const ADDRESS_VERSION = 0x17

/** Why a Base58 address was refused. */
export class InvalidAddressError extends DualnetError {
  override name = 'InvalidAddressError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_INVALID_ADDRESS'
}

/** Base58 rendering of 20 address bytes. */
export function toBase58(address: Uint8Array): string {
  return base58Check(concatBytes(Uint8Array.of(ADDRESS_VERSION), address))
}

/** Base58Check of `payload`: Base58 of `payload` ‖ the first 4 bytes of its SHA256d (addresses here, WIF keys in the CLI's banner). */
export function base58Check(payload: Uint8Array): string {
  return bs58.encode(concatBytes(payload, sha256d(payload).subarray(0, 4)))
}

/**
 * The 20 bytes of a Base58 address. Throws {@link InvalidAddressError} when the text
 * is not Base58, the payload is not 25 bytes, the version byte is not 0x17, or the
 * checksum does not match (the node's parser rules, reference §3).
 */
export function fromBase58(text: string): Uint8Array {
  let decoded: Uint8Array
  try {
    decoded = bs58.decode(text)
  } catch (err) {
    throw new InvalidAddressError(`not a Base58 string: ${text}`, { cause: err })
  }
  if (decoded.length !== 25) throw new InvalidAddressError(`address payload must be 25 bytes, got ${decoded.length}`)
  if (decoded[0] !== ADDRESS_VERSION) throw new InvalidAddressError(`address version byte must be 0x17, got 0x${decoded[0]!.toString(16)}`)
  const payload = decoded.subarray(0, 21)
  if (!bytesEqual(sha256d(payload).subarray(0, 4), decoded.subarray(21))) throw new InvalidAddressError('address checksum mismatch')
  return decoded.slice(1, 21)
}
