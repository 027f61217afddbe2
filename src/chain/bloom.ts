/**
 * Log blooms (2048-bit, the Ethereum receipt and block `logsBloom`, yellow paper
 * §4.3.1: for each address and topic, three bits chosen by the low 11 bits of the
 * first three byte pairs of its keccak-256). Hashing every address and topic costs
 * more than the rest of a block's bookkeeping, so blooms are computed when first
 * rendered and kept. (The only packaged implementation, @ethereumjs/vm's `Bloom`,
 * would load the whole VM for these few lines.)
 */
import type { RawLog } from '../evm/transferLogs.ts'
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'

const BLOOM_BYTES = 256
const memo = new WeakMap<object, Uint8Array>()
/**
 * Bit positions of recently seen addresses and topics: a test suite's logs repeat the
 * same few contracts, event signatures and accounts, and a lookup costs a tenth of a
 * keccak-256. Bounded: emptied when it reaches {@link POSITIONS_LIMIT} entries.
 */
const positions = new Map<string, number>()
const POSITIONS_LIMIT = 4096

/** Bloom of `logs`, memoised on `owner` (a record or a block). */
export function logsBloom(owner: object, logs: () => Iterable<RawLog>): Uint8Array {
  let bits = memo.get(owner)
  if (bits === undefined) {
    bits = new Uint8Array(BLOOM_BYTES)
    for (const [address, topics] of logs()) {
      addToBloom(bits, address)
      for (const topic of topics) addToBloom(bits, topic)
    }
    memo.set(owner, bits)
  }
  return bits
}

function addToBloom(bits: Uint8Array, entry: Uint8Array): void {
  const key = toHexRaw(entry)
  let packed = positions.get(key)
  if (packed === undefined) {
    const hash = keccak256(entry)
    packed = 0
    for (let i = 0; i < 6; i += 2) packed = packed * 2048 + (((hash[i]! << 8) | hash[i + 1]!) & 2047)
    if (positions.size >= POSITIONS_LIMIT) positions.clear()
    positions.set(key, packed)
  }
  for (let i = 0; i < 3; i++) {
    const bit = packed % 2048
    packed = Math.floor(packed / 2048)
    bits[BLOOM_BYTES - 1 - (bit >> 3)]! |= 1 << (bit & 7)
  }
}
