/**
 * Lossless JSON (src/util/losslessJson.ts): a fork reads the remote's REST answers, whose
 * u64 fields (a block header's ConsensusData) exceed 2^53, and answers them again byte
 * for byte; JSON.parse would round them.
 */
import { describe, expect, it } from 'vitest'
import { parseLosslessJson, stringifyLosslessJson } from '../src/util/losslessJson.ts'

describe('parseLosslessJson', () => {
  it('keeps whole numbers beyond 2^53 exact as bigint, and leaves everything else as JSON.parse reads it', () => {
    const text = '{"ConsensusData":12525060584587181283,"Height":9,"Neg":-9007199254740993,"F":1.5,"E":1e300,"S":"x\\"18446744073709551615","U":"\\u0000n:1","A":[9007199254740991,9007199254740992]}'
    expect(parseLosslessJson(text)).toEqual({
      ConsensusData: 12525060584587181283n,
      Height: 9,
      Neg: -9007199254740993n,
      F: 1.5,
      E: 1e300,
      S: 'x"18446744073709551615',
      U: '\u0000n:1',
      A: [9007199254740991, 9007199254740992n],
    })
  })

  it('round-trips through stringifyLosslessJson to the same text', () => {
    const text = '{"Hash":"ab","Header":{"ConsensusData":18446744073709551615,"Bookkeepers":[]},"Transactions":[{"GasLimit":18446744073709551615,"Nonce":0}]}'
    expect(stringifyLosslessJson(parseLosslessJson(text))).toBe(text)
  })

  it('throws SyntaxError for text that is not JSON, as JSON.parse does', () => {
    expect(() => parseLosslessJson('{"a":12345678901234567890')).toThrow(SyntaxError)
    expect(() => parseLosslessJson('nope')).toThrow(SyntaxError)
  })
})
