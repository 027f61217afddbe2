/**
 * The devnet's one bookkeeper: the P-256 key that signs every block, as the solo
 * node's wallet account does (reference §5.5). It also holds the part of both token
 * supplies that the dev accounts do not (reference §4.1: solo genesis credits the
 * whole supply to the bookkeeper).
 */
import { p256 } from '@noble/curves/nist.js'
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

/** The bookkeeper of `privateKey`. Throws if the key is not a valid P-256 scalar. */
export function createBookkeeper(privateKey: Hex = DEFAULT_BOOKKEEPER_KEY): Bookkeeper {
  const secret = fromHex(privateKey)
  const publicKey = p256.getPublicKey(secret, true)
  const address = hash160(concatBytes(Uint8Array.of(0x21), publicKey, Uint8Array.of(0xac)))
  return {
    privateKey,
    publicKey,
    address,
    // noble hashes the message with SHA-256 before signing (prehash) and emits low-S r‖s.
    sign: (message) => p256.sign(message, secret),
  }
}
