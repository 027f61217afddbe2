/**
 * The package's own Keccak-256 (src/util/hash.ts) against @noble/hashes' keccak_256:
 * every length around the rate boundaries, random data of any length, known vectors,
 * fresh output arrays, and inputs that are views into larger buffers.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import fc from 'fast-check'
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { keccak256 } from '../src/util/hash.ts'
import { toHexRaw } from '../src/util/hex.ts'

const hex = (bytes: Uint8Array) => toHexRaw(bytes)

describe('keccak256', () => {
  it('matches the known vectors', () => {
    expect(hex(keccak256(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(hex(keccak256(new TextEncoder().encode('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45')
    // The ERC-20 Transfer event topic.
    expect(hex(keccak256(new TextEncoder().encode('Transfer(address,address,uint256)')))).toBe('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
  })

  it('equals noble for every length from 0 to 3 blocks + 1 and around larger block multiples', () => {
    const lengths = [...Array.from({ length: 3 * 136 + 2 }, (_, i) => i), 135 * 7, 136 * 7, 136 * 7 + 1, 5000, 24_576]
    for (const length of lengths) {
      const data = new Uint8Array(randomBytes(length))
      expect(hex(keccak256(data)), `length ${length}`).toBe(hex(keccak_256(data)))
    }
    // All-0xff bytes exercise the sign bit of every 32-bit word.
    for (const length of [1, 4, 135, 136, 137, 300]) {
      const data = new Uint8Array(length).fill(0xff)
      expect(hex(keccak256(data))).toBe(hex(keccak_256(data)))
    }
  })

  it('equals noble on random data, including views at odd offsets of a larger buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.nat({ max: 7 }), (body, shift) => {
        const backing = new Uint8Array(body.length + shift + 3)
        backing.set(body, shift)
        const view = backing.subarray(shift, shift + body.length)
        expect(hex(keccak256(view))).toBe(hex(keccak_256(body)))
      }),
      { numRuns: 500 },
    )
  })

  it('returns a new array each time, unaffected by later hashes', () => {
    const a = keccak256(Uint8Array.of(1))
    const b = keccak256(Uint8Array.of(2))
    expect(a).not.toBe(b)
    expect(hex(a)).toBe(hex(keccak_256(Uint8Array.of(1))))
    a.fill(0)
    expect(hex(keccak256(Uint8Array.of(1)))).toBe(hex(keccak_256(Uint8Array.of(1))))
  })
})
