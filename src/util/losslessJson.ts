/**
 * JSON that keeps whole numbers beyond 2^53 exact: the REST interface writes u64 fields
 * (a block header's ConsensusData, a genesis GasLimit) as plain digits, which `JSON.parse`
 * would round. Such numbers come back as bigint, and the REST writer (rest/json.ts
 * `stringifyRest`) puts their digits back on the wire unchanged.
 *
 * Parsing is the `lossless-json` library's. Writing stays `JSON.stringify` with a
 * replacer: it is on the path of every REST answer, and the library's own `stringify`
 * (a JavaScript walk of the value) is slower than V8's native one.
 */
import { isSafeNumber, parse } from 'lossless-json'

/** A number token: a bigint for an integer outside the safe range, else a number (as JSON.parse reads it). */
function parseNumber(token: string): number | bigint {
  return !isSafeNumber(token) && /^-?\d+$/.test(token) ? BigInt(token) : Number(token)
}

/**
 * `JSON.parse(text)`, except that an integer literal outside the safe range becomes a
 * bigint. Throws SyntaxError, as JSON.parse does, for text that is not JSON.
 */
export function parseLosslessJson(text: string): unknown {
  return parse(text, null, parseNumber)
}

/** `JSON.stringify(value)` with bigints written as plain digits (the inverse of {@link parseLosslessJson}). */
export function stringifyLosslessJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `\u0000${v}\u0000` : v)).replace(/"\\u0000(\d+)\\u0000"/g, '$1')
}
