/**
 * Signature programs of native transactions: building them, the address they stand
 * for, their REST description, and the node's signature checks (reference §2.2, §3;
 * core/program/program.go, core/types/address.go,
 * core/validation/transaction_validator.go `checkTransactionSignatures`). Reading them
 * is ./programParser.ts (re-exported here).
 *
 * - Verification script, single key: PUSHBYTES(key) ‖ CHECKSIG (`0xAC`).
 * - Verification script, multisig: PUSH(m) ‖ PUSHBYTES(key)… ‖ PUSH(n) ‖ CHECKMULTISIG
 *   (`0xAE`), 1 ≤ m ≤ n, 2 ≤ n ≤ 16. The node accepts the keys in any order but derives
 *   the address from the keys **sorted** by {@link comparePublicKeys} (X, not bytes).
 * - Invocation script: pushes of serialised signatures (./signature.ts).
 * - Signer address: a single key → `AddressFromPubKey` (hash160 of its canonical
 *   program, or the Ethereum address of a secp256k1 key); a multisig → hash160 of the
 *   canonical sorted program.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { toBase58 } from './address.ts'
import { decodeEip155Fields } from './eip155Envelope.ts'
import { parseInvocation, parseVerification, type ProgramInfo } from './programParser.ts'
import { comparePublicKeys, publicKeyAddress, serializePublicKey, type PublicKey } from './publicKey.ts'
import { Op, pushBytes, pushSmallInt } from './script.ts'
import { verifySignature } from './signature.ts'
import { MAX_SIGNATURES, nativeTransactionHash, type NativeSig, type NativeTransaction } from './transaction.ts'
import { hash160 } from '../util/hash.ts'
import { bytesEqual, concatBytes } from '../util/hex.ts'

export { InvalidProgramError, parseInvocation, parseVerification, type ProgramInfo } from './programParser.ts'

/** A parsed verification script with the address it stands for. */
export interface Program extends ProgramInfo {
  address: Uint8Array
}

/** Single-key verification script: PUSHBYTES(serialised key) ‖ CHECKSIG. */
export function singleKeyProgram(key: PublicKey): Uint8Array {
  return concatBytes(pushBytes(serializePublicKey(key)), Uint8Array.of(Op.CHECKSIG))
}

/** m-of-n verification script with the keys sorted as the node and the SDK sort them. */
export function multiKeyProgram(keys: readonly PublicKey[], m: number): Uint8Array {
  const n = keys.length
  if (!(m >= 1 && m <= n && n > 1 && n <= MAX_SIGNATURES)) throw new RangeError(`wrong multi-sig param m=${m} n=${n}`)
  const sorted = [...keys].sort(comparePublicKeys)
  return concatBytes(pushSmallInt(m), ...sorted.map((k) => pushBytes(serializePublicKey(k))), pushSmallInt(n), Uint8Array.of(Op.CHECKMULTISIG))
}

/** The address a program stands for (§3): see the module doc. */
export function programAddress(info: ProgramInfo): Uint8Array {
  const [only] = info.keys
  if (info.keys.length === 1 && only !== undefined) return publicKeyAddress(only)
  return hash160(multiKeyProgram(info.keys, info.m))
}

/** Parses a verification script and derives its address. Throws {@link InvalidProgramError}. */
export function parseProgram(script: Uint8Array): Program {
  const info = parseVerification(script)
  return { ...info, address: programAddress(info) }
}

/**
 * A sig entry as the node's REST JSON shows it (`TransArryByteToHexString`): keys in
 * script order, serialised canonically; m; the pushed signatures. Anything unreadable
 * gives the node's empty `Sig{}` (m 0, no keys, no signatures). Never throws.
 */
export function describeSig(sig: NativeSig): { pubKeys: Uint8Array[]; m: number; sigData: Uint8Array[] } {
  try {
    const sigData = parseInvocation(sig.invocation)
    const { m, keys } = parseVerification(sig.verification)
    return { pubKeys: keys.map(serializePublicKey), m, sigData }
  } catch {
    return { pubKeys: [], m: 0, sigData: [] }
  }
}

/**
 * A signature check failed: REST 45021 with Result "transaction verify signature fail"
 * (§1.5 rejection 9). `reason` is what the node logs; `cause` the underlying error.
 */
export class SignatureVerificationError extends DualnetError {
  override name = 'SignatureVerificationError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_SIGNATURE_VERIFICATION'
  readonly code = 45021
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('transaction verify signature fail', options)
  }
}

/**
 * The node's stateless signature checks. Returns the signer addresses (distinct, in
 * order). Throws {@link SignatureVerificationError} when a script is unreadable, m/n/sig
 * counts are wrong (1 ≤ m ≤ keys, sigs ≥ m), a signature does not verify (for a
 * multisig, each of the first m signatures must match a distinct key), or the payer is
 * not among the signers. For 0xd3 the payer must be the RLP's recovered sender.
 */
export function verifyNativeSignatures(tx: NativeTransaction, hashRaw: Uint8Array = nativeTransactionHash(tx)): Uint8Array[] {
  if (tx.payload.kind === 'eip155') {
    let sender: Uint8Array
    try {
      sender = decodeEip155Fields(tx.payload.rlp).payer
    } catch (err) {
      throw new SignatureVerificationError('invalid EIP-155 signature', { cause: err })
    }
    if (!bytesEqual(sender, tx.payer)) throw new SignatureVerificationError('EIP-155 sender is not the payer')
    return [sender]
  }
  if (tx.sigs.length > MAX_SIGNATURES) throw new SignatureVerificationError(`transaction signature number ${tx.sigs.length} exceeds ${MAX_SIGNATURES}`)
  const signers: Uint8Array[] = []
  for (const sig of tx.sigs) {
    const address = verifyEntry(sig, hashRaw)
    if (!signers.some((a) => bytesEqual(a, address))) signers.push(address)
  }
  if (!signers.some((a) => bytesEqual(a, tx.payer))) throw new SignatureVerificationError(`signature missing for payer: ${toBase58(tx.payer)}`)
  return signers
}

/** {@link verifyNativeSignatures} for callers that only need pass/fail. */
export function verifyNativeTransaction(tx: NativeTransaction): void {
  verifyNativeSignatures(tx)
}

function verifyEntry(sig: NativeSig, hashRaw: Uint8Array): Uint8Array {
  let sigData: Uint8Array[]
  let info: ProgramInfo
  try {
    // m ≤ 16, so more signatures than that are never looked at (only counted: sigs ≥ m).
    sigData = parseInvocation(sig.invocation, MAX_SIGNATURES)
    info = parseVerification(sig.verification)
  } catch (err) {
    throw new SignatureVerificationError((err as Error).message, { cause: err })
  }
  const { m, keys } = info
  if (keys.length > MAX_SIGNATURES || sigData.length < m || m > keys.length || m <= 0) throw new SignatureVerificationError('wrong tx sig param length')
  const used = new Array<boolean>(keys.length).fill(false)
  for (const signature of sigData.slice(0, m)) {
    const k = keys.findIndex((key, j) => !used[j] && verifySignature(key, signature, hashRaw))
    if (k === -1) throw new SignatureVerificationError(keys.length === 1 ? 'signature verification failed' : 'multi-signature verification failed')
    used[k] = true
  }
  return programAddress(info)
}
