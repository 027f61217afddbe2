/** Base58 addresses (src/native/address.ts, reference §3): form, round trip and the node's refusals. */
import bs58 from 'bs58'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromBase58, InvalidAddressError, toBase58 } from '../src/native/address.ts'
import { toHexRaw } from '../src/util/hex.ts'

describe('Base58 addresses', () => {
  it("addresses: 34 characters starting with A, round trip, and the node's refusals", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (address) => {
        const text = toBase58(address)
        expect(text).toMatch(/^A[1-9A-HJ-NP-Za-km-z]{33}$/)
        expect(toHexRaw(fromBase58(text))).toBe(toHexRaw(address))
      }),
      { numRuns: 200 },
    )
    // The reference's governance address (0x…07 as Base58).
    expect(toBase58(Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? 7 : 0)))).toBe('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK')
    expect(() => fromBase58('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ug0')).toThrow(InvalidAddressError)
    expect(() => fromBase58('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugL')).toThrow(/checksum/)
    expect(() => fromBase58('')).toThrow(/25 bytes, got 0/)
    expect(() => fromBase58(bs58.encode(new Uint8Array(25)))).toThrow(/version byte/)
  })
})
