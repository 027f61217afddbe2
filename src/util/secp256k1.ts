/**
 * Public-key recovery from a secp256k1 signature with libsecp256k1 (the `secp256k1`
 * package's prebuilt binding, the library go-ethereum links), for the two places that
 * recover a sender: EVM legacy transactions and the native format's EIP-155 envelope.
 * One native library for both also keeps @noble/curves' secp256k1 (about 20 ms to
 * import) off the start-up path; and the library itself loads on first use
 * ({@link libsecp256k1}), so that starting a devnet and answering its first calls does
 * not load a native add-on only transactions need.
 */
import { createRequire } from 'node:module'
import type Secp256k1 from 'secp256k1'
import { bigIntToMinimalBytes } from './hex.ts'

let binding: typeof Secp256k1 | undefined

/**
 * The `secp256k1` package (libsecp256k1's prebuilt binding), required on the first call:
 * its loading (the package's search for a prebuilt add-on, then dlopen) is a
 * measurable share of a fresh process's start (docs/performance.md, "CLI start").
 */
export function libsecp256k1(): typeof Secp256k1 {
  binding ??= createRequire(import.meta.url)('secp256k1') as typeof Secp256k1
  return binding
}

/** Order of the secp256k1 group. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/**
 * go-ethereum's `ValidateSignatureValues` under homestead rules: recovery id 0 or 1,
 * 0 < r < n and 0 < s ≤ n/2 (EIP-2).
 */
export function validSignatureValues(recovery: number, r: bigint, s: bigint): boolean {
  return (recovery === 0 || recovery === 1) && r > 0n && s > 0n && r < SECP256K1_N && s <= SECP256K1_N / 2n
}

/**
 * The uncompressed public key (65 bytes, `0x04` prefix) that signed `message` (32
 * bytes) with (`r`, `s`, `recovery`). Throws the library's `Error` when no key
 * recovers; callers check {@link validSignatureValues} first.
 */
export function recoverPublicKey(message: Uint8Array, recovery: number, r: bigint, s: bigint): Uint8Array {
  const signature = new Uint8Array(64)
  signature.set(word(r), 0)
  signature.set(word(s), 32)
  return libsecp256k1().ecdsaRecover(signature, recovery, message, false)
}

function word(value: bigint): Uint8Array {
  const out = new Uint8Array(32)
  const bytes = bigIntToMinimalBytes(value)
  out.set(bytes, 32 - bytes.length)
  return out
}
