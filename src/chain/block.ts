/**
 * Blocks as the real node serialises and hashes them (reference §5.1, §5.5).
 * Hashes are held in raw byte order; the REST view reverses them (§1.7).
 */
import { BinaryWriter } from '../native/binary.ts'
import { sha256d } from '../util/hash.ts'
import { keepHash } from './merkle.ts'
import type { ChainTransaction } from './transaction.ts'
import type { ExecutionRecord } from './record.ts'

/** Header fields of the spec's Block (REST Header object). */
export interface BlockHeader {
  /** Always 0. */
  version: number
  /** Raw hash of the parent; zero for genesis. */
  prevHash: Uint8Array
  /** Raw TransactionsRoot (§5.2). */
  transactionsRoot: Uint8Array
  /** Raw BlockRoot (§5.3); zero for genesis. */
  blockRoot: Uint8Array
  /** Unix seconds. */
  timestamp: number
  height: number
  /** Unsigned 64-bit. Genesis 2083236893; later blocks a value derived from the parent (deterministic). */
  consensusData: bigint
  /** Empty on solo. */
  consensusPayload: Uint8Array
  /** 20 raw bytes of the bookkeeper address. */
  nextBookkeeper: Uint8Array
  /** 33-byte compressed P-256 keys; empty for genesis. */
  bookkeepers: Uint8Array[]
}

/** A block of the chain with what the ledger derived while building it. */
export interface ChainBlock {
  header: BlockHeader
  /** Raw block hash: SHA256d of the unsigned header. */
  hash: Uint8Array
  /** Transactions in block order, native and EVM. */
  transactions: ChainTransaction[]
  /** One execution record per transaction, same order. */
  records: ExecutionRecord[]
  /** Peaks of the BlockRoot tree over TransactionsRoots 0..height. */
  peaks: Uint8Array[]
  /** EVM gas used by the block's transactions. */
  gasUsed: bigint
  /** 256-byte bloom of the block's EVM logs (computed on first use). */
  logsBloom(): Uint8Array
  /** Bookkeeper signatures (64-byte r‖s over SHA256(hash)); computed on first use (signing is off the hot path). */
  signatures(): Uint8Array[]
}

/** Unsigned header serialisation: what the block hash covers (§5.1). */
export function serializeUnsignedHeader(h: BlockHeader): Uint8Array {
  return writeUnsigned(new BinaryWriter(), h).finish()
}

/** Full header serialisation: unsigned part, bookkeepers and signatures (§5.1). */
export function serializeHeader(h: BlockHeader, signatures: readonly Uint8Array[]): Uint8Array {
  const w = writeUnsigned(new BinaryWriter(), h)
  w.varint(h.bookkeepers.length)
  for (const key of h.bookkeepers) w.varbytes(key)
  w.varint(signatures.length)
  for (const sig of signatures) w.varbytes(sig)
  return w.finish()
}

/** Raw block: header, u32 LE transaction count (not a var-int), raw transactions (§5.1). */
export function serializeBlock(block: ChainBlock): Uint8Array {
  const w = new BinaryWriter().bytes(serializeHeader(block.header, block.signatures()))
  w.u32(block.transactions.length)
  for (const tx of block.transactions) w.bytes(tx.raw)
  return w.finish()
}

/** Raw block hash: SHA256(SHA256(unsigned header)), as a view the block keeps (merkle.ts {@link keepHash}). */
export function blockHash(h: BlockHeader): Uint8Array {
  return keepHash(sha256d(serializeUnsignedHeader(h)))
}

function writeUnsigned(w: BinaryWriter, h: BlockHeader): BinaryWriter {
  return w
    .u32(h.version)
    .bytes(h.prevHash)
    .bytes(h.transactionsRoot)
    .bytes(h.blockRoot)
    .u32(h.timestamp)
    .u32(h.height)
    .u64(h.consensusData)
    .varbytes(h.consensusPayload)
    .bytes(h.nextBookkeeper)
}
