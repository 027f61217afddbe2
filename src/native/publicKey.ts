/**
 * Public keys in the chain's serialisation (reference §2.2 "Pubkey serialisation", §3;
 * ontology-crypto keypair/key.go, keypair/publist.go, core/types/address.go).
 *
 * The devnet verifies two kinds:
 * - **P-256** (ECDSA on secp256r1, the SDK's default): serialised as the bare 33-byte
 *   compressed point. The node also reads `0x04` ‖ X ‖ Y (65 bytes) and
 *   `0x12` ‖ `0x02` (curve label P-256) ‖ point; both are accepted here too.
 * - **secp256k1 Ethereum keys**: `0x15` ‖ 65-byte uncompressed point.
 *
 * Other key types (`0x12` on other curves, `0x13` SM2, `0x14` Ed25519) are refused
 * with {@link InvalidPublicKeyError}.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hash160, keccak256 } from '../util/hash.ts'
import { concatBytes, toHexRaw } from '../util/hex.ts'

/** Key-type bytes of ontology-crypto (keypair.KeyType). */
export const KeyType = { ECDSA: 0x12, SM2: 0x13, EdDSA: 0x14, EthECDSA: 0x15 } as const
/** Curve label of P-256 after a `0x12` key-type byte. */
const P256_LABEL = 0x02
const CHECKSIG = 0xac

/** A key the devnet verifies. */
export interface PublicKey {
  /** `p256`: ECDSA P-256 (key type 0x12); `secp256k1`: Ethereum key (key type 0x15). */
  readonly type: 'p256' | 'secp256k1'
  /** Uncompressed SEC1 point, 65 bytes: `0x04` ‖ X(32, big-endian) ‖ Y(32). */
  readonly point: Uint8Array
}

/** Bytes that are not a public key the devnet verifies. */
export class InvalidPublicKeyError extends DualnetError {
  override name = 'InvalidPublicKeyError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_INVALID_PUBLIC_KEY'
}

const UNSUPPORTED: Record<number, string> = { [KeyType.SM2]: 'SM2', [KeyType.EdDSA]: 'Ed25519' }

/**
 * Parses a serialised public key as the node's `keypair.DeserializePublicKey` does,
 * including its leniency: a P-256 point may be followed by bytes that are ignored, and
 * an uncompressed P-256 point is not checked to be on the curve (it then never verifies).
 */
export function parsePublicKey(data: Uint8Array): PublicKey {
  if (data.length <= 3) throw new InvalidPublicKeyError(`public key too short (${data.length} bytes)`)
  const tag = data[0]!
  if (tag === 0x02 || tag === 0x03 || tag === 0x04) return { type: 'p256', point: p256Point(data) }
  if (tag === KeyType.ECDSA) {
    if (data[1] !== P256_LABEL) {
      throw new InvalidPublicKeyError(`unsupported ECDSA curve label ${data[1]}: the devnet verifies P-256 and Ethereum secp256k1 keys`)
    }
    return { type: 'p256', point: p256Point(data.subarray(2)) }
  }
  if (tag === KeyType.EthECDSA) {
    const raw = data.subarray(1)
    try {
      if (raw.length !== 65) throw new Error(`expected 65 bytes, got ${raw.length}`)
      return { type: 'secp256k1', point: secp256k1.Point.fromBytes(raw).toBytes(false) }
    } catch (err) {
      throw new InvalidPublicKeyError('invalid secp256k1 public key', { cause: err })
    }
  }
  const name = UNSUPPORTED[tag]
  if (name !== undefined) throw new InvalidPublicKeyError(`unsupported key type 0x${tag.toString(16)} (${name}): the devnet verifies P-256 and Ethereum secp256k1 keys`)
  throw new InvalidPublicKeyError(`unrecognised key type 0x${tag.toString(16)}`)
}

/** ec.DecodePublicKey for P-256: compressed (decompressed, must be on the curve) or uncompressed (taken as is). */
function p256Point(data: Uint8Array): Uint8Array {
  const tag = data[0]
  if (tag === 0x04) {
    if (data.length < 65) throw new InvalidPublicKeyError(`uncompressed P-256 key needs 65 bytes, got ${data.length}`)
    return data.slice(0, 65)
  }
  if ((tag !== 0x02 && tag !== 0x03) || data.length < 33) throw new InvalidPublicKeyError('invalid P-256 public key encoding')
  try {
    return p256.Point.fromBytes(data.subarray(0, 33)).toBytes(false)
  } catch (err) {
    throw new InvalidPublicKeyError('compressed P-256 key is not on the curve', { cause: err })
  }
}

/** The node's `keypair.SerializePublicKey`: P-256 = 33-byte compressed; Ethereum = `0x15` ‖ 65 bytes. */
export function serializePublicKey(key: PublicKey): Uint8Array {
  if (key.type === 'secp256k1') return concatBytes(Uint8Array.of(KeyType.EthECDSA), key.point)
  const compressed = new Uint8Array(33)
  compressed[0] = 0x02 | (key.point[64]! & 1)
  compressed.set(key.point.subarray(1, 33), 1)
  return compressed
}

/**
 * The node's multisig key order (keypair.SortPublicKeys): by key type (P-256 = 0x12
 * before Ethereum = 0x15), then X, then Y as numbers. Note this is **not** the byte
 * order of the compressed keys (a `03…` key with a smaller X sorts before a `02…` key).
 */
export function comparePublicKeys(a: PublicKey, b: PublicKey): number {
  if (a.type !== b.type) return a.type === 'p256' ? -1 : 1
  // Fixed-width big-endian X then Y: lexicographic order of the hex is numeric order.
  const ha = toHexRaw(a.point.subarray(1))
  const hb = toHexRaw(b.point.subarray(1))
  return ha < hb ? -1 : ha > hb ? 1 : 0
}

/**
 * The address a single key stands for (core/types/address.go `AddressFromPubKey`, §3):
 * an Ethereum key gives its Ethereum address keccak256(X ‖ Y)[12:]; a P-256 key gives
 * hash160(PUSHBYTES33 ‖ compressed key ‖ CHECKSIG).
 */
export function publicKeyAddress(key: PublicKey): Uint8Array {
  if (key.type === 'secp256k1') return keccak256(key.point.subarray(1)).slice(12)
  return p256Address(serializePublicKey(key))
}

/** Address of a 33-byte compressed P-256 key: hash160(`0x21` ‖ key ‖ `0xAC`) (§3). */
export function p256Address(publicKey33: Uint8Array): Uint8Array {
  if (publicKey33.length !== 33) throw new InvalidPublicKeyError(`a compressed P-256 key has 33 bytes, got ${publicKey33.length}`)
  return hash160(concatBytes(Uint8Array.of(33), publicKey33, Uint8Array.of(CHECKSIG)))
}
