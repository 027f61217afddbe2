/**
 * Block headers as the real node serialises and hashes them (reference §5.1).
 * Hashes are held in raw byte order; the REST view reverses them (§1.7).
 */
import { BinaryWriter } from './binary.ts'
import { sha256dKept } from './merkle.ts'

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

/**
 * Raw block hash: SHA256(SHA256(unsigned header)), as a view the block keeps
 * (merkle.ts `keepHash`). The header is serialised into a scratch buffer, so hashing a
 * block allocates no ArrayBuffer (blocks are built ten thousand at a time).
 */
export function blockHash(h: BlockHeader): Uint8Array {
  return sha256dKept(unsignedHeaderScratch(h))
}

/** Scratch of {@link unsignedHeaderScratch}; grows for an unusually long consensus payload. */
let scratch = new Uint8Array(256)
let scratchView = new DataView(scratch.buffer)

/** The unsigned header serialised as {@link serializeUnsignedHeader} does, in a scratch buffer valid until the next call. */
function unsignedHeaderScratch(h: BlockHeader): Uint8Array {
  const payload = h.consensusPayload.length
  const size = 4 + h.prevHash.length + h.transactionsRoot.length + h.blockRoot.length + 4 + 4 + 8 + 9 + payload + h.nextBookkeeper.length
  if (size > scratch.length) {
    scratch = new Uint8Array(size)
    scratchView = new DataView(scratch.buffer)
  }
  const out = scratch
  const view = scratchView
  let at = 0
  const bytes = (b: Uint8Array) => {
    out.set(b, at)
    at += b.length
  }
  view.setUint32(at, h.version >>> 0, true)
  at += 4
  bytes(h.prevHash)
  bytes(h.transactionsRoot)
  bytes(h.blockRoot)
  view.setUint32(at, h.timestamp >>> 0, true)
  view.setUint32(at + 4, h.height >>> 0, true)
  view.setBigUint64(at + 8, BigInt.asUintN(64, h.consensusData), true)
  at += 16
  // var-int length of the payload (BinaryWriter.varint), then the payload.
  if (payload < 0xfd) out[at++] = payload
  else if (payload <= 0xffff) {
    out[at] = 0xfd
    view.setUint16(at + 1, payload, true)
    at += 3
  } else {
    out[at] = 0xfe
    view.setUint32(at + 1, payload, true)
    at += 5
  }
  bytes(h.consensusPayload)
  bytes(h.nextBookkeeper)
  return out.subarray(0, at)
}

function writeUnsigned(w: BinaryWriter, h: BlockHeader): BinaryWriter {
  return w.u32(h.version).bytes(h.prevHash).bytes(h.transactionsRoot).bytes(h.blockRoot).u32(h.timestamp).u32(h.height).u64(h.consensusData).varbytes(h.consensusPayload).bytes(h.nextBookkeeper)
}
