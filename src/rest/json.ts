/**
 * JSON for the REST surface. The node's u64 fields (ConsensusData, genesis GasLimit)
 * can exceed 2^53; they are held as bigint in results and written as plain digits
 * on the wire, as Go's encoder writes them (reference §1.4.1, §1.4.2).
 */
import { stringifyLosslessJson } from '../util/losslessJson.ts'

/** A u64 for a REST result: a number when exact, else a bigint. */
export function u64(value: bigint): number | bigint {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value
}

/** JSON text of `value` with bigints as plain digits and `<`, `>`, `&` escaped as Go does. */
export function stringifyRest(value: unknown): string {
  return stringifyLosslessJson(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}
