/**
 * One signature over a native transaction hash (reference §2.2; ontology-crypto
 * signature/signature.go `Deserialize`, `Verify`, `Sign`, `Serialize`).
 *
 * The message is always the 32 raw bytes of the transaction hash (SHA256d of the
 * unsigned part, §2.1). What each key type signs:
 * - **P-256**, scheme SHA256withECDSA (`0x01`): ECDSA over SHA-256(raw hash). Encoded
 *   `0x01` ‖ r(32) ‖ s(32) (65 bytes, as the TS SDK emits) or bare r ‖ s (64 bytes, as
 *   the Go node emits). High S is accepted (Go `ecdsa.Verify`). The node also reads
 *   the other ECDSA hash schemes (SHA-224/384/512, SHA3-*, RIPEMD-160); so does this.
 * - **secp256k1 Ethereum key**, scheme KECCAK256WithECDSA (`0x0b`): ECDSA over the raw
 *   hash **itself** — a 32-byte message is taken as already hashed (go-ethereum
 *   `crypto.VerifySignature(pub, msg, sig)`); no keccak is applied. Encoded `0x0b` ‖
 *   r ‖ s ‖ v (66 bytes, `ethcrypto.Sign` output, which the node emits); the node
 *   reads only r ‖ s, so `0x0b` ‖ r ‖ s (65 bytes) verifies too. High S is refused
 *   (libsecp256k1 / btcec with the malleability check).
 */
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha224, sha256, sha384, sha512 } from '@noble/hashes/sha2.js'
import { sha3_224, sha3_256, sha3_384, sha3_512 } from '@noble/hashes/sha3.js'
import { keccak256 } from '../util/hash.ts'
import { bigIntToBytes, bytesToBigInt, concatBytes } from '../util/hex.ts'
import type { PublicKey } from './publicKey.ts'

/** Signature scheme bytes of ontology-crypto (signature.SignatureScheme). */
export const SignatureScheme = {
  SHA224withECDSA: 0,
  SHA256withECDSA: 1,
  SHA384withECDSA: 2,
  SHA512withECDSA: 3,
  SHA3_224withECDSA: 4,
  SHA3_256withECDSA: 5,
  SHA3_384withECDSA: 6,
  SHA3_512withECDSA: 7,
  RIPEMD160withECDSA: 8,
  SM3withSM2: 9,
  SHA512withEdDSA: 10,
  KECCAK256WithECDSA: 11,
} as const

const ECDSA_HASH: ReadonlyArray<(message: Uint8Array) => Uint8Array> = [sha224, sha256, sha384, sha512, sha3_224, sha3_256, sha3_384, sha3_512, ripemd160]
const P256_N = p256.Point.CURVE().n

/**
 * Whether `signature` (serialised, see the module doc) by `key` covers `message` (the
 * 32 raw hash bytes). Never throws: malformed bytes simply do not verify.
 */
export function verifySignature(key: PublicKey, signature: Uint8Array, message: Uint8Array): boolean {
  if (signature.length < 2 || message.length === 0) return false
  // Deserialize: exactly 64 bytes = bare SHA256withECDSA; otherwise scheme byte ‖ data.
  const bare = signature.length === 64
  const scheme = bare ? SignatureScheme.SHA256withECDSA : signature[0]!
  const data = bare ? signature : signature.subarray(1)
  try {
    if (key.type === 'secp256k1') {
      if (scheme !== SignatureScheme.KECCAK256WithECDSA || data.length < 64) return false
      const digest = message.length === 32 ? message : keccak256(message)
      return secp256k1.verify(data.subarray(0, 64), digest, key.point, { prehash: false, lowS: true })
    }
    const hash = ECDSA_HASH[scheme]
    // 65 data bytes are read as a secp256k1 recoverable signature, which a P-256 key never matches.
    if (hash === undefined || data.length % 2 !== 0 || data.length === 65) return false
    const r = bytesToBigInt(data.subarray(0, data.length / 2))
    const s = bytesToBigInt(data.subarray(data.length / 2))
    if (r <= 0n || s <= 0n || r >= P256_N || s >= P256_N) return false
    const compact = concatBytes(bigIntToBytes(r, 32), bigIntToBytes(s, 32))
    return p256.verify(compact, digest32(hash(message)), key.point, { prehash: false, lowS: false })
  } catch {
    return false
  }
}

/** Go's hashToInt for a 256-bit order: the leftmost 32 bytes, shorter digests as numbers. */
function digest32(digest: Uint8Array): Uint8Array {
  if (digest.length >= 32) return digest.subarray(0, 32)
  const out = new Uint8Array(32)
  out.set(digest, 32 - digest.length)
  return out
}

/** A private key for signing: 32 bytes on P-256 or secp256k1. */
export interface SigningKey {
  type: 'p256' | 'secp256k1'
  privateKey: Uint8Array
}

/**
 * Signs the raw hash the way the real signers do: P-256 → `0x01` ‖ r ‖ s over
 * SHA-256(message), low S (the TS SDK); secp256k1 → `0x0b` ‖ r ‖ s ‖ v over the
 * message itself (the node's `signature.Sign` + `Serialize` for Ethereum keys).
 * Deterministic (RFC 6979).
 */
export function signMessage(key: SigningKey, message: Uint8Array): Uint8Array {
  if (key.type === 'p256') {
    return concatBytes(Uint8Array.of(SignatureScheme.SHA256withECDSA), p256.sign(message, key.privateKey, { prehash: true, lowS: true }))
  }
  const recovered = secp256k1.sign(message, key.privateKey, { prehash: false, lowS: true, format: 'recovered' })
  // noble's recovered format is v ‖ r ‖ s; go-ethereum's is r ‖ s ‖ v.
  return concatBytes(Uint8Array.of(SignatureScheme.KECCAK256WithECDSA), recovered.subarray(1), recovered.subarray(0, 1))
}

/** The public key of a signing key, in the devnet's {@link PublicKey} shape. */
export function signingPublicKey(key: SigningKey): PublicKey {
  const curve = key.type === 'p256' ? p256 : secp256k1
  return { type: key.type, point: curve.getPublicKey(key.privateKey, false) }
}
