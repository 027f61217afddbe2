/**
 * Log blooms (yellow paper §4.3.1) against @ethereumjs/vm's Bloom, an independent
 * implementation, over generated logs; repeated entries (served from the position
 * cache) give the same bits as fresh ones.
 */
import { Bloom } from '@ethereumjs/vm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { logsBloom } from '../src/chain/bloom.ts'
import type { RawLog } from '../src/evm/transferLogs.ts'

function reference(logs: RawLog[]): Uint8Array {
  const bloom = new Bloom()
  for (const [address, topics] of logs) {
    bloom.add(address)
    for (const topic of topics) bloom.add(topic)
  }
  return bloom.bitvector
}

const log = fc.tuple(
  fc.uint8Array({ minLength: 20, maxLength: 20 }),
  fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 4 }),
  fc.uint8Array({ maxLength: 64 }),
) as fc.Arbitrary<RawLog>

describe('logsBloom', () => {
  it('equals @ethereumjs/vm Bloom for any logs, also when entries repeat', () => {
    fc.assert(
      fc.property(fc.array(log, { maxLength: 6 }), (logs) => {
        const owner = {}
        const bits = logsBloom(owner, () => logs)
        expect(bits).toEqual(reference(logs))
        // Same entries again (cached positions), on a new owner.
        expect(logsBloom({}, () => [...logs, ...logs])).toEqual(reference(logs))
        // Memoised per owner.
        expect(logsBloom(owner, () => [])).toBe(bits)
      }),
      { numRuns: 300 },
    )
  })

  it('is all zero without logs', () => {
    expect(logsBloom({}, () => [])).toEqual(new Uint8Array(256))
  })
})
