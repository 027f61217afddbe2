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

const BLOOM_BYTES = 256
const memo = new WeakMap<object, Uint8Array>()

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
  const hash = keccak256(entry)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047
    bits[BLOOM_BYTES - 1 - (bit >> 3)]! |= 1 << (bit & 7)
  }
}
