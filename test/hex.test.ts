/**
 * The byte and hex conversions of src/util/hex.ts that the transaction path leans on:
 * `bytesToBigInt` (leading zeros skipped, a double for up to 6 significant bytes, hex
 * beyond) and `bigIntToMinimalBytes` /
 * `bigIntToBytes` (RLP's canonical integers, fixed-width words).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bigIntToBytes, bigIntToMinimalBytes, bytesToBigInt } from '../src/util/hex.ts'

describe('hex conversions', () => {
  it('bytesToBigInt reads big-endian at every length, across the 6-byte switch to hex', () => {
    expect(bytesToBigInt(new Uint8Array(0))).toBe(0n)
    expect(bytesToBigInt(Uint8Array.of(0))).toBe(0n)
    expect(bytesToBigInt(Uint8Array.of(1, 2))).toBe(0x0102n)
    expect(bytesToBigInt(new Uint8Array(6).fill(0xff))).toBe(0xffffffffffffn)
    expect(bytesToBigInt(new Uint8Array(7).fill(0xff))).toBe(0xffffffffffffffn)
    expect(bytesToBigInt(Uint8Array.of(0, 0, 0, 0, 0, 0, 1))).toBe(1n)
    expect(bytesToBigInt(new Uint8Array(32).fill(0xff))).toBe(2n ** 256n - 1n)
    // A view into a larger buffer reads only its own bytes.
    expect(bytesToBigInt(Uint8Array.of(9, 9, 0x12, 0x34, 9).subarray(2, 4))).toBe(0x1234n)
    // 32-byte EVM words: zero, a small value, 6 and 7 significant bytes, an address.
    const word = (hex: string) => Uint8Array.from(Buffer.from(hex.padStart(64, '0'), 'hex'))
    expect(bytesToBigInt(new Uint8Array(32))).toBe(0n)
    expect(bytesToBigInt(word('80'))).toBe(0x80n)
    expect(bytesToBigInt(word('ffffffffffff'))).toBe(0xffffffffffffn)
    expect(bytesToBigInt(word('01000000000000'))).toBe(0x01000000000000n)
    expect(bytesToBigInt(word('f39fd6e51aad88f6f4ce6ab8827279cfffb92266'))).toBe(0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266n)
    expect(bytesToBigInt(word('00ff').subarray(30))).toBe(0xffn)
  })

  it('bytesToBigInt equals the hex reading for any bytes, leading zeros or not', () => {
    const bytes = fc.tuple(fc.nat({ max: 40 }), fc.uint8Array({ maxLength: 40 })).map(([zeros, rest]) => Uint8Array.from([...new Array<number>(zeros).fill(0), ...rest]))
    fc.assert(
      fc.property(bytes, (b) => {
        expect(bytesToBigInt(b)).toBe(b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString('hex')}`))
      }),
      { numRuns: 500 },
    )
  })

  it('bigIntToMinimalBytes writes no leading zeros, zero as empty, and refuses a negative number', () => {
    expect([...bigIntToMinimalBytes(0n)]).toEqual([])
    expect([...bigIntToMinimalBytes(0x1n)]).toEqual([1])
    expect([...bigIntToMinimalBytes(0x100n)]).toEqual([1, 0])
    expect([...bigIntToMinimalBytes(31337n)]).toEqual([0x7a, 0x69])
    expect(() => bigIntToMinimalBytes(-1n)).toThrow(RangeError)
  })

  it('bigIntToBytes pads to the width and refuses what does not fit', () => {
    expect([...bigIntToBytes(0x0102n, 4)]).toEqual([0, 0, 1, 2])
    expect(() => bigIntToBytes(0x10000n, 2)).toThrow(RangeError)
    expect(() => bigIntToBytes(-1n, 2)).toThrow(RangeError)
  })
})
