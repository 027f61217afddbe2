/**
 * The package's own Base58 codec (src/native/address.ts) against bs58 (base-x), the
 * codec it replaces: same text for any bytes, same bytes for any text, the same
 * refusals; and the address rules of reference §3 on top.
 */
import bs58 from 'bs58'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeBase58, encodeBase58, fromBase58, InvalidAddressError, toBase58 } from '../src/native/address.ts'
import { toHexRaw } from '../src/util/hex.ts'

describe('Base58 codec', () => {
  it('encodes as bs58 does, leading zero bytes included', () => {
    const fixed = [new Uint8Array(0), Uint8Array.of(0), new Uint8Array(5), Uint8Array.of(0, 0, 1), Uint8Array.of(255), new Uint8Array(25).fill(255)]
    for (const bytes of fixed) expect(encodeBase58(bytes)).toBe(bs58.encode(bytes))
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat({ max: 4 }), (body, zeros) => {
        const bytes = new Uint8Array([...new Uint8Array(zeros), ...body])
        const text = encodeBase58(bytes)
        expect(text).toBe(bs58.encode(bytes))
        expect(toHexRaw(decodeBase58(text))).toBe(toHexRaw(bytes))
      }),
      { numRuns: 500 },
    )
  })

  it('decodes any text as bs58 does, and refuses the same characters', () => {
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet, '1', '1', '0', 'O', 'I', 'l', ' ', 'é', '😀'), maxLength: 50 }), (text) => {
        let expected: string | Error
        try {
          expected = toHexRaw(bs58.decode(text))
        } catch (err) {
          expected = err as Error
        }
        if (expected instanceof Error) expect(() => decodeBase58(text)).toThrow()
        else expect(toHexRaw(decodeBase58(text))).toBe(expected)
      }),
      { numRuns: 1000 },
    )
  })

  it('addresses: 34 characters starting with A, round trip, and the node\'s refusals', () => {
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
