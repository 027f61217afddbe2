/**
 * The chain's native transaction format (reference §2.1, §2.3): decoding with the
 * node's rules, encoding, and the hash. Raw byte order throughout; the REST form of
 * the hash is reversed (§1.7).
 */
import { sha256d } from '../util/hash.ts'
import { BinaryWriter } from './binary.ts'
import { BinaryReader, DecodeError } from './binaryReader.ts'

/** Transaction types the node accepts (§2.3). */
export const NativeTxType = { Deploy: 0xd0, InvokeNeo: 0xd1, InvokeWasm: 0xd2, Eip155: 0xd3 } as const

/** Largest transaction the node accepts: 1 MiB (reference §0). */
export const MAX_TX_SIZE = 1024 * 1024
/** Most signature entries, and most keys in a multisig (reference §0). */
export const MAX_SIGNATURES = 16

/** A deployment payload (TxType 0xd0). */
export interface DeployPayload {
  kind: 'deploy'
  code: Uint8Array
  /** 0/1 NeoVM, 3 Wasm. */
  vmFlags: number
  name: string
  codeVersion: string
  author: string
  email: string
  description: string
}

/** A payload: an invocation script (0xd1, 0xd2), a deployment (0xd0) or the RLP of an EIP-155 tx (0xd3). */
export type NativePayload = { kind: 'invoke'; code: Uint8Array } | DeployPayload | { kind: 'eip155'; rlp: Uint8Array }

/** One signature entry: the invocation script (pushes of signatures) and the verification script (keys). */
export interface NativeSig {
  invocation: Uint8Array
  verification: Uint8Array
}

/** A native transaction. Amounts: gasPrice in gas-token 1e-9 units per gas. */
export interface NativeTransaction {
  txType: number
  nonce: number
  gasPrice: bigint
  gasLimit: bigint
  /** 20 raw bytes. */
  payer: Uint8Array
  payload: NativePayload
  sigs: NativeSig[]
}

/** Raw bytes that are not a transaction the node accepts: REST 43001 INVALID TRANSACTION (§1.5). */
export class InvalidTransactionError extends Error {
  override name = 'InvalidTransactionError'
  readonly code = 43001
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/**
 * Decodes a raw native transaction. Bytes after a complete transaction are ignored,
 * as the node ignores them; `length` says how many were read. Throws
 * {@link InvalidTransactionError} for anything the node refuses (version ≠ 0, an
 * unknown type, attributes, non-minimal var-ints, truncation, more than 16 sigs,
 * more than 1 MiB).
 */
export function decodeNativeTransaction(bytes: Uint8Array): { tx: NativeTransaction; length: number } {
  if (bytes.length > MAX_TX_SIZE) throw new InvalidTransactionError(`transaction larger than ${MAX_TX_SIZE} bytes`)
  const r = new BinaryReader(bytes)
  try {
    const version = r.u8()
    if (version !== 0) throw new InvalidTransactionError(`unsupported transaction version ${version}`)
    const txType = r.u8()
    const nonce = r.u32()
    const gasPrice = r.u64()
    const gasLimit = r.u64()
    const payer = r.bytes(20).slice()
    const payload = readPayload(r, txType)
    const attributes = r.varint()
    if (attributes !== 0n) throw new InvalidTransactionError(`transaction attributes are not supported (${attributes})`)
    const count = r.varint()
    if (count > BigInt(MAX_SIGNATURES)) throw new InvalidTransactionError(`too many signatures (${count}, at most ${MAX_SIGNATURES})`)
    const sigs: NativeSig[] = []
    for (let i = 0n; i < count; i++) sigs.push({ invocation: r.varbytes().slice(), verification: r.varbytes().slice() })
    return { tx: { txType, nonce, gasPrice, gasLimit, payer, payload, sigs }, length: r.position }
  } catch (err) {
    if (err instanceof DecodeError) throw new InvalidTransactionError(err.message, { cause: err })
    throw err
  }
}

function readPayload(r: BinaryReader, txType: number): NativePayload {
  switch (txType) {
    case NativeTxType.InvokeNeo:
    case NativeTxType.InvokeWasm:
      return { kind: 'invoke', code: r.varbytes().slice() }
    case NativeTxType.Eip155:
      return { kind: 'eip155', rlp: r.varbytes().slice() }
    case NativeTxType.Deploy: {
      const code = r.varbytes().slice()
      const vmFlags = r.u8()
      const text = () => new TextDecoder().decode(r.varbytes())
      return { kind: 'deploy', code, vmFlags, name: text(), codeVersion: text(), author: text(), email: text(), description: text() }
    }
    default:
      throw new InvalidTransactionError(`unsupported transaction type 0x${txType.toString(16)}`)
  }
}

/** The unsigned part (fields 1–8 of §2.1): what the hash covers and what is signed. */
export function unsignedBytes(tx: NativeTransaction): Uint8Array {
  return writeUnsigned(tx).finish()
}

/** The whole raw transaction: unsigned part, then the signature entries. */
export function encodeNativeTransaction(tx: NativeTransaction): Uint8Array {
  const w = writeUnsigned(tx).varint(tx.sigs.length)
  for (const sig of tx.sigs) w.varbytes(sig.invocation).varbytes(sig.verification)
  return w.finish()
}

/** Raw hash: SHA256(SHA256(unsigned part)) (§2.1). */
export function nativeTransactionHash(tx: NativeTransaction): Uint8Array {
  return sha256d(unsignedBytes(tx))
}

function writeUnsigned(tx: NativeTransaction): BinaryWriter {
  const w = new BinaryWriter().u8(0).u8(tx.txType).u32(tx.nonce).u64(tx.gasPrice).u64(tx.gasLimit).bytes(tx.payer)
  const p = tx.payload
  if (p.kind === 'invoke') w.varbytes(p.code)
  else if (p.kind === 'eip155') w.varbytes(p.rlp)
  else {
    const text = (s: string) => w.varbytes(new TextEncoder().encode(s))
    w.varbytes(p.code).u8(p.vmFlags)
    for (const s of [p.name, p.codeVersion, p.author, p.email, p.description]) text(s)
  }
  return w.varint(0)
}
