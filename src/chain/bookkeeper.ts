/**
 * The devnet's one bookkeeper: the P-256 key that signs every block, as the solo
 * node's wallet account does (reference §5.5). It also holds the part of both token
 * supplies that the dev accounts do not (reference §4.1: solo genesis credits the
 * whole supply to the bookkeeper).
 *
 * P-256 here runs on Node's native curve (`createECDH('prime256v1')` computes k·G),
 * so creating a devnet loads no JavaScript curve. Signatures are deterministic
 * (RFC 6979 with HMAC-SHA256) and low-S, byte for byte what @noble/curves'
 * `p256.sign(message, key)` gives (test/dev-keys.test.ts checks it).
 */
import { createECDH, createHmac } from 'node:crypto'
import { hash160, sha256 } from '../util/hash.ts'
import { bigIntToBytes, bytesToBigInt, concatBytes, fromHex, toHex, type Hex } from '../util/hex.ts'

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

/** Order of the P-256 base point (SEC 2, secp256r1 n). */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n

/**
 * Compressed (33-byte) P-256 public key of a 32-byte private key. Throws `Error`
 * when the key is not 32 bytes or not in [1, n-1].
 */
export function p256PublicKey(secret: Uint8Array): Uint8Array {
  return new Uint8Array(p256Point(secret, 'compressed'))
}

/**
 * ECDSA-P256 signature r‖s (64 bytes, low-S) of SHA256(message) with a 32-byte
 * private key; nonce by RFC 6979 §3.2 (HMAC-SHA256), as @noble/curves signs by
 * default. Throws `Error` for an invalid key.
 */
export function p256Sign(message: Uint8Array, secret: Uint8Array): Uint8Array {
  const d = bytesToBigInt(secret)
  if (secret.length !== 32 || d <= 0n || d >= N) throw new Error('invalid P-256 private key')
  // bits2int(H(m)) mod n: the hash is as long as n, so bits2int is the plain integer.
  const h = bytesToBigInt(sha256(message)) % N
  const seed = concatBytes(secret, bigIntToBytes(h, 32))
  const hmac = (key: Uint8Array, ...parts: Uint8Array[]): Uint8Array => {
    const mac = createHmac('sha256', key)
    for (const p of parts) mac.update(p)
    return mac.digest()
  }
  let v: Uint8Array = new Uint8Array(32).fill(1)
  let k: Uint8Array = new Uint8Array(32)
  k = hmac(k, v, ZERO, seed)
  v = hmac(k, v)
  k = hmac(k, v, ONE, seed)
  v = hmac(k, v)
  for (;;) {
    v = hmac(k, v)
    const nonce = bytesToBigInt(v)
    if (nonce > 0n && nonce < N) {
      const r = bytesToBigInt(p256Point(v, 'uncompressed').subarray(1, 33)) % N
      if (r !== 0n) {
        let s = (invert(nonce) * (h + r * d)) % N
        if (s !== 0n) {
          if (s > N >> 1n) s = N - s
          return concatBytes(bigIntToBytes(r, 32), bigIntToBytes(s, 32))
        }
      }
    }
    k = hmac(k, v, ZERO)
    v = hmac(k, v)
  }
}

const ZERO = Uint8Array.of(0)
const ONE = Uint8Array.of(1)

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

/** a⁻¹ mod n (extended Euclid; n is prime and 0 < a < n). */
function invert(a: bigint): bigint {
  let [oldR, r] = [a, N]
  let [oldS, s] = [1n, 0n]
  while (r !== 0n) {
    const q = oldR / r
    ;[oldR, r] = [r, oldR - q * r]
    ;[oldS, s] = [s, oldS - q * s]
  }
  return ((oldS % N) + N) % N
}
