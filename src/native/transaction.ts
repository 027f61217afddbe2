/**
 * The chain's native transaction format (reference §2.1, §2.3, §2.4;
 * core/types/transaction.go, core/payload/*.go): decoding with the node's rules,
 * encoding, and the hash. Raw byte order throughout; the REST form of a hash is the
 * reversed bytes (§1.7, `toReversedHex`). Signature checks live in ./program.ts.
 *
 * Layout of types 0xd0–0xd2 (all integers little-endian):
 * version u8 (0) ‖ txType u8 ‖ nonce u32 ‖ gasPrice u64 ‖ gasLimit u64 ‖ payer 20 ‖
 * payload ‖ attribute count varint (0) — the unsigned part, hashed — then sig count
 * varint (≤ 16) ‖ per sig varbytes(invocation) ‖ varbytes(verification).
 * Type 0xd3 is only `0x00` ‖ `0xd3` ‖ varbytes(RLP) (see ./eip155Envelope.ts).
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { keccak256, sha256d } from '../util/hash.ts'
import { BinaryWriter } from './binary.ts'
import { BinaryReader, DecodeError } from './binaryReader.ts'
import { decodeEip155Fields, Eip155DecodeError } from './eip155Envelope.ts'

/** Transaction types the node accepts (§2.3). The SDK's legacy 0x02–0x05 are refused. */
export const NativeTxType = { Deploy: 0xd0, InvokeNeo: 0xd1, InvokeWasm: 0xd2, Eip155: 0xd3 } as const
/** One of {@link NativeTxType}. */
export type NativeTxTypeValue = (typeof NativeTxType)[keyof typeof NativeTxType]

/** Largest transaction the node accepts: 1 MiB (reference §0; `MAX_TX_SIZE`). */
export const MAX_TX_SIZE = 1024 * 1024
/** Most signature entries per transaction, and most keys in a multisig (reference §0). */
export const MAX_SIGNATURES = 16

/** A deployment payload (TxType 0xd0; core/payload/deploy_code.go). */
export interface DeployPayload {
  kind: 'deploy'
  code: Uint8Array
  /** 0 or 1 = NeoVM, 3 = Wasm (anything else is refused). */
  vmFlags: number
  /** ≤ 252 UTF-8 bytes. */
  name: string
  /** ≤ 252 UTF-8 bytes. */
  codeVersion: string
  /** ≤ 252 UTF-8 bytes. */
  author: string
  /** ≤ 252 UTF-8 bytes. */
  email: string
  /** ≤ 65536 UTF-8 bytes. */
  description: string
}

/**
 * A payload: an invocation script (0xd1 NeoVM, 0xd2 Wasm call), a deployment (0xd0),
 * or the RLP of a signed legacy Ethereum transaction (0xd3), whose `chainId` is derived
 * from its `v` on decoding (the node requires its own chain id, 12345 on solo).
 */
export type NativePayload = { kind: 'invoke'; code: Uint8Array } | DeployPayload | { kind: 'eip155'; rlp: Uint8Array; chainId: bigint }

/** One signature entry: the invocation script (pushes of signatures) and the verification script (keys). */
export interface NativeSig {
  invocation: Uint8Array
  verification: Uint8Array
}

/**
 * A native transaction (§2.1). For 0xd3 the nonce, gasPrice (gwei), gasLimit and payer
 * (recovered sender) are derived from the RLP and are not encoded separately; sigs is empty.
 */
export interface NativeTransaction {
  /** Always 0. */
  version: 0
  txType: NativeTxTypeValue
  /** u32. */
  nonce: number
  /** u64, gas-token 1e-9 units per gas. */
  gasPrice: bigint
  /** u64, gas units. */
  gasLimit: bigint
  /** 20 raw address bytes (Base58 and EVM forms are the same bytes, §3). */
  payer: Uint8Array
  payload: NativePayload
  /** At most 16. */
  sigs: NativeSig[]
}

/** A decoded transaction and how many input bytes it took (bytes after it are ignored, as the node ignores them). */
export interface DecodedNativeTransaction {
  tx: NativeTransaction
  length: number
}

/** Raw bytes the node refuses to deserialise: REST 43001 INVALID TRANSACTION (§1.5). */
export class InvalidTransactionError extends DualnetError {
  override name = 'InvalidTransactionError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_INVALID_TRANSACTION'
  readonly code = 43001
}

const DEPLOY_TEXT_LIMITS = [252, 252, 252, 252, 65536] as const
const DEPLOY_TEXT_NAMES = ['name', 'version', 'author', 'email', 'description'] as const
const MAX_WASM_CODE = 512 * 1024
// Fatal: invalid UTF-8 would not re-encode to the same bytes (and hash); ignoreBOM keeps a leading BOM.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * Decodes a raw native transaction with the node's rules. Throws
 * {@link InvalidTransactionError} (message naming the problem, the low-level error as
 * `cause`) for: more than 1 MiB, version ≠ 0, an unknown type, truncation, a
 * non-minimal var-int, attributes, more than 16 sigs, a deploy payload the node refuses,
 * an EIP-155 RLP the node refuses. Never reads or allocates beyond `bytes`.
 */
export function decodeNativeTransaction(bytes: Uint8Array): DecodedNativeTransaction {
  if (bytes.length > MAX_TX_SIZE) throw new InvalidTransactionError(`transaction larger than ${MAX_TX_SIZE} bytes (${bytes.length})`)
  const r = new BinaryReader(bytes)
  try {
    const version = r.u8()
    if (version !== 0) throw new InvalidTransactionError(`unsupported transaction version ${version}`)
    const txType = r.u8()
    if (txType === NativeTxType.Eip155) return decodeEnvelope(r)
    if (txType !== NativeTxType.Deploy && txType !== NativeTxType.InvokeNeo && txType !== NativeTxType.InvokeWasm) {
      throw new InvalidTransactionError(`unsupported transaction type 0x${txType.toString(16)}`)
    }
    const nonce = r.u32()
    const gasPrice = r.u64()
    const gasLimit = r.u64()
    const payer = r.bytes(20).slice()
    const payload = txType === NativeTxType.Deploy ? readDeploy(r) : { kind: 'invoke' as const, code: r.varbytes().slice() }
    const attributes = r.varint()
    if (attributes !== 0n) throw new InvalidTransactionError(`transaction attribute count must be 0, got ${attributes}`)
    const count = r.varint()
    if (count > BigInt(MAX_SIGNATURES)) throw new InvalidTransactionError(`too many signatures (${count}, at most ${MAX_SIGNATURES})`)
    const sigs: NativeSig[] = []
    for (let i = 0; i < Number(count); i++) sigs.push({ invocation: r.varbytes().slice(), verification: r.varbytes().slice() })
    return { tx: { version: 0, txType, nonce, gasPrice, gasLimit, payer, payload, sigs }, length: r.position }
  } catch (err) {
    if (err instanceof DecodeError || err instanceof Eip155DecodeError) throw new InvalidTransactionError(err.message, { cause: err })
    throw err
  }
}

function decodeEnvelope(r: BinaryReader): DecodedNativeTransaction {
  const rlp = r.varbytes().slice()
  const { chainId, ...fields } = decodeEip155Fields(rlp)
  return { tx: { version: 0, txType: NativeTxType.Eip155, ...fields, payload: { kind: 'eip155', rlp, chainId }, sigs: [] }, length: r.position }
}

/** A deploy payload serialised as get_contract_state `raw=1` answers it (varbytes code, vm flags byte, five varstrings). Throws as the transaction decoder does. */
export function decodeDeployPayload(raw: Uint8Array): DeployPayload {
  return readDeploy(new BinaryReader(raw))
}

function readDeploy(r: BinaryReader): DeployPayload {
  const code = r.varbytes().slice()
  const vmFlags = r.u8()
  const texts: string[] = []
  for (const [i, field] of DEPLOY_TEXT_NAMES.entries()) {
    const at = r.position
    const raw = r.varbytes()
    if (raw.length > DEPLOY_TEXT_LIMITS[i]!) throw new InvalidTransactionError(`[contract] ${field} too long!`)
    try {
      texts.push(utf8.decode(raw))
    } catch (err) {
      throw new InvalidTransactionError(`deploy ${field} at offset ${at} is not valid UTF-8`, { cause: err })
    }
  }
  // validateDeployCode (core/payload/deploy_code.go).
  if (vmFlags !== 0 && vmFlags !== 1 && vmFlags !== 3) throw new InvalidTransactionError(`invalid vm flags: ${vmFlags}`)
  if (vmFlags === 3 && code.length > MAX_WASM_CODE) throw new InvalidTransactionError('[contract] Code too long!')
  const [name, codeVersion, author, email, description] = texts as [string, string, string, string, string]
  return { kind: 'deploy', code, vmFlags, name, codeVersion, author, email, description }
}

/**
 * The unsigned part (fields 1–8 of §2.1): what the hash covers. For 0xd3 the whole
 * envelope (it has no native signatures). Throws `TypeError` when the payload kind does
 * not fit the type.
 */
export function unsignedBytes(tx: NativeTransaction): Uint8Array {
  return writeUnsigned(tx).finish()
}

/** The whole raw transaction: the unsigned part, then the signature entries (none for 0xd3). */
export function encodeNativeTransaction(tx: NativeTransaction): Uint8Array {
  const w = writeUnsigned(tx)
  if (tx.txType === NativeTxType.Eip155) return w.finish()
  w.varint(tx.sigs.length)
  for (const sig of tx.sigs) w.varbytes(sig.invocation).varbytes(sig.verification)
  return w.finish()
}

/**
 * Raw hash (§2.1, §1.7): SHA256(SHA256(unsigned part)); for 0xd3 the Ethereum hash
 * keccak256(RLP). Render it for REST with `toReversedHex`, for the EVM with `toHex`.
 */
export function nativeTransactionHash(tx: NativeTransaction): Uint8Array {
  if (tx.payload.kind === 'eip155') return keccak256(tx.payload.rlp)
  return sha256d(unsignedBytes(tx))
}

function writeUnsigned(tx: NativeTransaction): BinaryWriter {
  const p = tx.payload
  const want = tx.txType === NativeTxType.Deploy ? 'deploy' : tx.txType === NativeTxType.Eip155 ? 'eip155' : 'invoke'
  if (p.kind !== want) throw new TypeError(`a 0x${tx.txType.toString(16)} transaction needs a '${want}' payload, got '${p.kind}'`)
  const w = new BinaryWriter().u8(0).u8(tx.txType)
  if (p.kind === 'eip155') return w.varbytes(p.rlp)
  if (tx.payer.length !== 20) throw new TypeError(`payer must be 20 bytes, got ${tx.payer.length}`)
  w.u32(tx.nonce).u64(tx.gasPrice).u64(tx.gasLimit).bytes(tx.payer)
  if (p.kind === 'invoke') w.varbytes(p.code)
  else {
    w.varbytes(p.code).u8(p.vmFlags)
    const encoder = new TextEncoder()
    for (const text of [p.name, p.codeVersion, p.author, p.email, p.description]) w.varbytes(encoder.encode(text))
  }
  return w.varint(0)
}
