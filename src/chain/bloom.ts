/**
 * Log blooms (2048-bit, the Ethereum receipt and block `logsBloom`). Hashing every
 * address and topic costs more than the rest of a block's bookkeeping, so blooms
 * are computed when first rendered and kept.
 */
import { Bloom } from '@ethereumjs/vm'
import type { RawLog } from '../evm/transferLogs.ts'

const memo = new WeakMap<object, Uint8Array>()

/** Bloom of `logs`, memoised on `owner` (a record or a block). */
export function logsBloom(owner: object, logs: () => Iterable<RawLog>): Uint8Array {
  let bits = memo.get(owner)
  if (bits === undefined) {
    const bloom = new Bloom()
    for (const [address, topics] of logs()) {
      bloom.add(address)
      for (const topic of topics) bloom.add(topic)
    }
    bits = bloom.bitvector
    memo.set(owner, bits)
  }
  return bits
}
