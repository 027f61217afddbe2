/**
 * Signature programs of native transactions (reference §2.2, §3): verification
 * scripts (one key + CHECKSIG, or m-of-n keys + CHECKMULTISIG), invocation scripts
 * (pushes of signatures), signer addresses, and the node's signature checks.
 */
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hash160, keccak256 } from '../util/hash.ts'
import { bytesEqual } from '../util/hex.ts'
import { MAX_SIGNATURES, type NativeSig, type NativeTransaction } from './transaction.ts'

const CHECKSIG = 0xac
const CHECKMULTISIG = 0xae
/** Key-type prefix of an Ethereum secp256k1 key in the chain's serialisation (§2.2). */
const SECP256K1_KEY = 0x15

/** A public key the devnet verifies: P-256 (33 bytes compressed) or secp256k1 (65 bytes uncompressed). */
export type PublicKey = { type: 'p256'; key: Uint8Array } | { type: 'secp256k1'; key: Uint8Array }

/** A parsed verification script. */
export interface Program {
  /** Signatures required. */
  m: number
  keys: PublicKey[]
  /** The address the program stands for (§3). */
  address: Uint8Array
}

/** A signature check failed: REST 45021, Result "transaction verify signature fail" (§1.5). */
export class SignatureVerificationError extends Error {
  override name = 'SignatureVerificationError'
  readonly code = 45021
  /** What exactly failed (the node answers only the fixed text). */
  readonly reason: string
  constructor(reason: string) {
    super('transaction verify signature fail')
    this.reason = reason
  }
}

/** Pushes of a script, in order. Throws on any opcode that is not a data push. */
function pushes(script: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = []
  const view = new DataView(script.buffer, script.byteOffset, script.byteLength)
  let i = 0
  while (i < script.length) {
    const op = script[i++]!
    let n: number
    if (op >= 1 && op <= 75) n = op
    else if (op === 0x4c && i + 1 <= script.length) n = script[i++]!
    else if (op === 0x4d && i + 2 <= script.length) (n = view.getUint16(i, true)), (i += 2)
    else if (op === 0x4e && i + 4 <= script.length) (n = view.getUint32(i, true)), (i += 4)
    else throw new SignatureVerificationError(`unexpected opcode 0x${op.toString(16)} in a signature script`)
    if (i + n > script.length) throw new SignatureVerificationError('signature script truncated')
    out.push(script.subarray(i, i + n))
    i += n
  }
  return out
}

function parseKey(bytes: Uint8Array): PublicKey {
  if (bytes.length === 33 && (bytes[0] === 2 || bytes[0] === 3)) return { type: 'p256', key: bytes }
  if (bytes.length === 66 && bytes[0] === SECP256K1_KEY && bytes[1] === 4) return { type: 'secp256k1', key: bytes.subarray(1) }
  throw new SignatureVerificationError(`unsupported public key (${bytes.length} bytes, type 0x${(bytes[0] ?? 0).toString(16)}): the devnet verifies P-256 and secp256k1 keys`)
}

/** PUSH(k) for 1..16 is 0x50 + k. */
function smallInt(op: number | undefined): number | undefined {
  return op !== undefined && op >= 0x51 && op <= 0x60 ? op - 0x50 : undefined
}

/** Parses a verification script. Throws {@link SignatureVerificationError} for anything else. */
export function parseProgram(script: Uint8Array): Program {
  const last = script[script.length - 1]
  if (last === CHECKSIG) {
    const [key, ...rest] = pushes(script.subarray(0, script.length - 1))
    if (key === undefined || rest.length > 0) throw new SignatureVerificationError('malformed single-key verification script')
    const parsed = parseKey(key)
    // AddressFromPubKey (§3): an Ethereum key stands for its Ethereum address.
    const address = parsed.type === 'secp256k1' ? keccak256(parsed.key.subarray(1)).subarray(12) : hash160(script)
    return { m: 1, keys: [parsed], address }
  }
  if (last === CHECKMULTISIG) {
    const m = smallInt(script[0])
    const n = smallInt(script[script.length - 2])
    if (m === undefined || n === undefined) throw new SignatureVerificationError('malformed multisig verification script')
    const keys = pushes(script.subarray(1, script.length - 2)).map(parseKey)
    if (keys.length !== n || m < 1 || m > n || n > MAX_SIGNATURES) {
      throw new SignatureVerificationError(`invalid multisig parameters m=${m} n=${n} (keys ${keys.length})`)
    }
    return { m, keys, address: hash160(script) }
  }
  throw new SignatureVerificationError('verification script ends in neither CHECKSIG nor CHECKMULTISIG')
}

/**
 * Whether `signature` by `key` covers the transaction hash `hashRaw` (§2.2): 64 bytes
 * r‖s or 65 bytes scheme‖r‖s; SHA256withECDSA (scheme 1) on P-256 signs
 * SHA256(hashRaw), KECCAK256WithECDSA (scheme 11) on secp256k1 signs keccak256(hashRaw).
 * Both low and high S are accepted, as the node's verifier accepts them.
 */
export function verifySignature(key: PublicKey, signature: Uint8Array, hashRaw: Uint8Array): boolean {
  let scheme: number | undefined
  let rs: Uint8Array
  if (signature.length === 64) rs = signature
  else if (signature.length === 65) (scheme = signature[0]), (rs = signature.subarray(1))
  else return false
  try {
    if (key.type === 'p256') {
      if (scheme !== undefined && scheme !== 1) return false
      return p256.verify(rs, hashRaw, key.key, { lowS: false })
    }
    if (scheme !== 11) return false
    return secp256k1.verify(rs, keccak256(hashRaw), key.key, { prehash: false, lowS: false })
  } catch {
    return false
  }
}

/**
 * The node's stateless signature checks (core/validation/transaction_validator.go):
 * every entry's signatures verify (≥ m distinct keys of its program), and the payer
 * is among the signer addresses. Throws {@link SignatureVerificationError}; returns
 * the signer addresses.
 */
export function verifyNativeSignatures(tx: NativeTransaction, hashRaw: Uint8Array): Uint8Array[] {
  if (tx.sigs.length === 0) throw new SignatureVerificationError('the transaction is not signed')
  const signers = tx.sigs.map((sig) => verifyEntry(sig, hashRaw))
  if (!signers.some((address) => bytesEqual(address, tx.payer))) {
    throw new SignatureVerificationError('the payer is not among the signers')
  }
  return signers
}

/**
 * A signature entry as the node renders it in transaction JSON (§1.4.2 Sigs):
 * serialised public keys (P-256 compressed; secp256k1 as 0x15 ‖ uncompressed), M, and
 * the signatures. Entries that do not parse render with what could be read.
 */
export function describeSig(sig: NativeSig): { pubKeys: Uint8Array[]; m: number; sigData: Uint8Array[] } {
  let sigData: Uint8Array[] = []
  try {
    sigData = pushes(sig.invocation)
  } catch {
    sigData = []
  }
  try {
    const program = parseProgram(sig.verification)
    const pubKeys = program.keys.map((k) => (k.type === 'p256' ? k.key : Uint8Array.of(SECP256K1_KEY, ...k.key)))
    return { pubKeys, m: program.m, sigData }
  } catch {
    return { pubKeys: [], m: 0, sigData }
  }
}

function verifyEntry(sig: NativeSig, hashRaw: Uint8Array): Uint8Array {
  const program = parseProgram(sig.verification)
  const signatures = pushes(sig.invocation)
  if (signatures.length < program.m) throw new SignatureVerificationError(`${signatures.length} signatures for ${program.m} required`)
  const used = new Set<number>()
  for (const signature of signatures) {
    const k = program.keys.findIndex((key, i) => !used.has(i) && verifySignature(key, signature, hashRaw))
    if (k === -1) throw new SignatureVerificationError('a signature does not verify')
    used.add(k)
  }
  return program.address
}
