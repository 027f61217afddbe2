/** The EVM's memoised keccak-256 (src/evm/memoKeccak.ts) against @noble/hashes: any input, repeated inputs, independent copies. */
import { keccak_256 } from '@noble/hashes/sha3.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { memoKeccak256 } from '../src/evm/memoKeccak.ts'

describe('memoKeccak256', () => {
  it('equals keccak_256 for inputs below, at and above the memoised length, first and repeated', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (data) => {
        const expected = keccak_256(data)
        expect(memoKeccak256(data)).toEqual(expected)
        expect(memoKeccak256(data.slice())).toEqual(expected)
      }),
      { numRuns: 500 },
    )
  })

  it('hands out copies: changing one digest changes no later one', () => {
    const data = new Uint8Array(64).fill(9)
    const first = memoKeccak256(data)
    first.fill(0)
    expect(memoKeccak256(data)).toEqual(keccak_256(data))
  })

  it('stays correct past its size bound', () => {
    for (let i = 0; i < 600; i++) {
      const data = Uint8Array.of(i & 0xff, i >> 8)
      expect(memoKeccak256(data)).toEqual(keccak_256(data))
    }
  })
})
