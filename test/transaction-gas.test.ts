/**
 * The gas a transaction owes before it runs (src/evm/transactionGas.ts): intrinsic gas
 * (yellow paper, EIP-2028, EIP-3860) and EIP-7623's calldata floor, as written in the
 * EIPs, and the pool's shortcut `requiredGasAbove`, which must answer as the full count.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ISTANBUL_GAS_RULES, floorGas, intrinsicGas, requiredGas, requiredGasAbove, type TransactionGasRules } from '../src/evm/transactionGas.ts'

const SHANGHAI: TransactionGasRules = { dataNonZeroGas: 16n, initCodeWordGas: 2n, floorGasPerToken: 0n }
const PRAGUE: TransactionGasRules = { dataNonZeroGas: 16n, initCodeWordGas: 2n, floorGasPerToken: 10n }
const TO = new Uint8Array(20).fill(1)

describe('transaction gas', () => {
  it('intrinsic gas and the floor of fixed data', () => {
    const data = new Uint8Array([0, 0, 0, 1, 2])
    expect(intrinsicGas(TO, data, ISTANBUL_GAS_RULES)).toBe(21_000n + 3n * 4n + 2n * 16n)
    // A creation: + 32,000, and on Shanghai 2 per 32-byte word of init code (one word here).
    expect(intrinsicGas(undefined, data, SHANGHAI)).toBe(53_000n + 3n * 4n + 2n * 16n + 2n)
    // EIP-7623: 3 zero bytes are 3 tokens, 2 non-zero ones 8: 21,000 + 10 × 11.
    expect(floorGas(data, PRAGUE.floorGasPerToken)).toBe(21_110n)
    expect(floorGas(data, 0n)).toBe(0n)
    expect(requiredGas(TO, new Uint8Array(1000).fill(0xff), PRAGUE)).toBe(61_000n)
    expect(requiredGas(TO, new Uint8Array(1000).fill(0xff), SHANGHAI)).toBe(37_000n)
  })

  it('requiredGasAbove answers as the full count, on either side of the shortcut', () => {
    const rules = fc.constantFrom(ISTANBUL_GAS_RULES, SHANGHAI, PRAGUE)
    const data = fc.uint8Array({ maxLength: 300 }).chain((bytes) => fc.constant(bytes.map((b) => (b < 128 ? 0 : b))))
    fc.assert(
      fc.property(rules, fc.boolean(), data, fc.bigInt({ min: 0n, max: 100_000n }), (r, create, bytes, limit) => {
        const to = create ? undefined : TO
        const required = requiredGas(to, bytes, r)
        expect(requiredGasAbove(limit, to, bytes, r)).toBe(limit < required ? required : undefined)
        expect(requiredGasAbove(required, to, bytes, r)).toBeUndefined()
        if (required > 0n) expect(requiredGasAbove(required - 1n, to, bytes, r)).toBe(required)
      }),
      { seed: 7623, numRuns: 2_000 },
    )
  })
})
