import { describe, expect, it } from 'vitest'
import { grouped } from '../src/util/grouped.ts'

// grouped() stands in for toLocaleString('en-US') in messages (no ICU load at start): it must write the same text.
describe('grouped', () => {
  it('groups whole numbers and bigints by three, as toLocaleString("en-US")', () => {
    const values: (number | bigint)[] = [0, 7, 999, 1000, 65_535, 86_400, 100_000, 4_294_967_295, Number.MAX_SAFE_INTEGER, -1, -1000, -123_456_789]
    for (const n of values) expect(grouped(n)).toBe(n.toLocaleString('en-US'))
    for (const n of [0n, 1000n, 10n ** 27n, -(10n ** 9n)]) expect(grouped(n)).toBe(n.toLocaleString('en-US'))
    expect(grouped(1_000_000_000)).toBe('1,000,000,000')
    expect(grouped(10n ** 18n)).toBe('1,000,000,000,000,000,000')
  })
  it('keeps a fraction and what is not a plain number as String writes them', () => {
    expect(grouped(1234.5)).toBe('1,234.5')
    expect(grouped(Number.NaN)).toBe('NaN')
    expect(grouped(Number.POSITIVE_INFINITY)).toBe('Infinity')
    expect(grouped(1e21)).toBe('1e+21')
  })
})
