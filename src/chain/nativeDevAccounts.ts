/**
 * Native dev accounts: P-256 keys as the chain's SDK and wallets use them (reference
 * §2.2, §3), so that native transactions can be signed the way real users sign them.
 * Keys are derived deterministically (SHA-256 of a label and index), so they are the
 * same in every devnet and can be hard-coded in tests. The public keys come from
 * Node's native P-256 (a few microseconds each), not a JavaScript curve.
 */
import { p256PublicKey } from './bookkeeper.ts'
import { hash160, sha256 } from '../util/hash.ts'
import { concatBytes, toHex, type Hex } from '../util/hex.ts'

/** A P-256 dev key with its native address. */
export interface NativeDevKey {
  /** 32-byte P-256 private key, 0x-hex. */
  privateKey: Hex
  /** 33-byte compressed public key, 0x-hex (the SDK's serialisation of a P-256 key). */
  publicKey: Hex
  /** 20 raw address bytes: hash160(0x21 ‖ public key ‖ 0xAC) (§3). */
  address: Uint8Array
}

/** Address of a P-256 public key (33 bytes compressed): hash160 of its single-key verification script (§3). */
export function addressOfP256Key(publicKey: Uint8Array): Uint8Array {
  return hash160(concatBytes(Uint8Array.of(0x21), publicKey, Uint8Array.of(0xac)))
}

/** The `i`-th native dev key: private key = SHA-256("dualnet native dev account <i>"). */
export function nativeDevKey(i: number): NativeDevKey {
  const secret = sha256(new TextEncoder().encode(`dualnet native dev account ${i}`))
  const publicKey = p256PublicKey(secret)
  return { privateKey: toHex(secret), publicKey: toHex(publicKey), address: addressOfP256Key(publicKey) }
}
