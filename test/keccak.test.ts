/**
 * keccak256 (src/util/hash.ts): hash-wasm's WebAssembly Keccak-256 once compiled,
 * @noble/hashes' before. Both must give the same digests, for every input length
 * around the rate (136 bytes) and across the calls the EVM makes.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { keccak256, wasmKeccakReady } from '../src/util/hash.ts'
import { toHexRaw } from '../src/util/hex.ts'

const input = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 0xff)

describe('keccak256', () => {
  it('is the WebAssembly one on Node', async () => {
    expect(await wasmKeccakReady).toBe(true)
  })

  it('known digests: the empty input and "abc"', async () => {
    await wasmKeccakReady
    expect(toHexRaw(keccak256(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(toHexRaw(keccak256(new TextEncoder().encode('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45')
  })

  it("equals @noble/hashes' for lengths 0 to 600 and 5 KB, as a new 32-byte array each call", async () => {
    await wasmKeccakReady
    for (const length of [...Array.from({ length: 601 }, (_, i) => i), 5_000]) {
      const data = input(length)
      const digest = keccak256(data)
      expect(digest).toBeInstanceOf(Uint8Array)
      expect(toHexRaw(digest), `length ${length}`).toBe(toHexRaw(keccak_256(data)))
    }
    const first = keccak256(input(64))
    const second = keccak256(input(64))
    expect(first).not.toBe(second)
    first.fill(0)
    expect(toHexRaw(second)).toBe(toHexRaw(keccak_256(input(64))))
  })

  it('hashes a view into a larger buffer by its own bytes', async () => {
    await wasmKeccakReady
    const buffer = input(300)
    const view = buffer.subarray(17, 17 + 64)
    expect(toHexRaw(keccak256(view))).toBe(toHexRaw(keccak_256(buffer.slice(17, 17 + 64))))
  })
})
