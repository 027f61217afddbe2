/**
 * The devnet's one bookkeeper: the P-256 key that signs every block, as the solo
 * node's wallet account does (reference §5.5). It also holds the part of both token
 * supplies that the dev accounts do not (reference §4.1: solo genesis credits the
 * whole supply to the bookkeeper).
 *
 * Public keys come from Node's native curve (`createECDH('prime256v1')` computes k·G),
 * so creating a devnet loads no JavaScript curve; signatures are @noble/curves'
 * `p256.sign` (RFC 6979, low-S), loaded when the first block is signed (signing is
 * lazy, off the hot path).
 */
import { createECDH } from 'node:crypto'
import { createRequire } from 'node:module'
import { hash160, sha256 } from '../util/hash.ts'
import { concatBytes, fromHex, toHex, type Hex } from '../util/hex.ts'

/** Default bookkeeper private key: SHA256("dualnet bookkeeper"), fixed so that block hashes are reproducible. */
export const DEFAULT_BOOKKEEPER_KEY: Hex = toHex(sha256(new TextEncoder().encode('dualnet bookkeeper')))

/** A P-256 signer with its native address. */
export interface Bookkeeper {
  /** 32-byte P-256 private key, 0x-hex. */
  privateKey: Hex
  /** 33-byte compressed public key (the Bookkeepers entry). */
  publicKey: Uint8Array
  /** Address: hash160(0x21 ‖ key ‖ 0xAC), reference §3. */
  address: Uint8Array
  /** 64-byte r‖s ECDSA-P256 over SHA256(message) (reference §5.5 SigData). */
  sign(message: Uint8Array): Uint8Array
}

/** The bookkeeper of `privateKey`. Throws `Error` if the key is not a 32-byte P-256 scalar in [1, n-1]. */
export function createBookkeeper(privateKey: Hex = DEFAULT_BOOKKEEPER_KEY): Bookkeeper {
  const secret = fromHex(privateKey)
  const publicKey = p256PublicKey(secret)
  return {
    privateKey,
    publicKey,
    address: hash160(concatBytes(Uint8Array.of(0x21), publicKey, Uint8Array.of(0xac))),
    sign: (message) => p256Sign(message, secret),
  }
}

/**
 * Compressed (33-byte) P-256 public key of a 32-byte private key. Throws `Error`
 * when the key is not 32 bytes or not in [1, n-1].
 */
export function p256PublicKey(secret: Uint8Array): Uint8Array {
  return new Uint8Array(p256Point(secret, 'compressed'))
}

interface P256Signer {
  sign(message: Uint8Array, secret: Uint8Array): Uint8Array
}

let p256: P256Signer | undefined

/**
 * ECDSA-P256 signature r‖s (64 bytes, low-S) of SHA256(message) with a 32-byte
 * private key: @noble/curves' `p256.sign` (RFC 6979 nonces), loaded on first use
 * (an ES module, which `require` loads synchronously on Node >= 20.19). Throws for an
 * invalid key.
 */
export function p256Sign(message: Uint8Array, secret: Uint8Array): Uint8Array {
  p256 ??= (createRequire(import.meta.url)('@noble/curves/nist.js') as { p256: P256Signer }).p256
  return p256.sign(message, secret)
}

/** scalar·G on P-256 in SEC 1 encoding, computed natively. */
function p256Point(scalar: Uint8Array, format: 'compressed' | 'uncompressed'): Buffer {
  if (scalar.length !== 32) throw new Error(`a P-256 private key is 32 bytes, got ${scalar.length}`)
  const ecdh = createECDH('prime256v1')
  try {
    ecdh.setPrivateKey(scalar)
  } catch (err) {
    throw new Error('invalid P-256 private key', { cause: err })
  }
  return ecdh.getPublicKey(null, format)
}
