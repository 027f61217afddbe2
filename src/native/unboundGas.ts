/**
 * Unbound gas (reference §4.2): main-token holders accrue gas over time at a
 * per-second rate that falls by interval, until a deadline. On a solo node the
 * deadline is 0, so nothing ever accrues; that stays the default. With the devnet's
 * `unboundGas` option the real schedule runs, with time measured from the devnet's
 * genesis timestamp (the node measures from its own genesis, 1530316800).
 */

/** Length of one interval of the schedule, seconds. */
export const UNBOUND_INTERVAL = 31_536_000
/** Gas (v1 units, 1e-9) generated per main token per second, by interval (§4.2). */
export const UNBOUND_RATES: readonly number[] = [5, 4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
/** The end of the schedule: 18 intervals. */
export const UNBOUND_SCHEDULE_END = UNBOUND_INTERVAL * UNBOUND_RATES.length

/** Accrual switched on: `deadline` in seconds after `genesis` (Unix seconds). */
export interface UnboundGasRule {
  genesis: number
  deadline: number
}

/**
 * CalcUnbindOng (§4.2): gas in v1 units accrued by `balanceV1` whole main tokens over
 * [start, min(end, deadline)) seconds after genesis; 0 when start ≥ deadline or start ≥ end.
 */
export function calcUnboundGas(balanceV1: bigint, start: number, end: number, deadline: number): bigint {
  const until = Math.min(end, deadline, UNBOUND_SCHEDULE_END)
  if (start >= until || balanceV1 <= 0n) return 0n
  let total = 0n
  for (let i = 0; i < UNBOUND_RATES.length; i++) {
    const from = Math.max(start, i * UNBOUND_INTERVAL)
    const to = Math.min(until, (i + 1) * UNBOUND_INTERVAL)
    if (to > from) total += BigInt(to - from) * BigInt(UNBOUND_RATES[i]!)
  }
  return total * balanceV1
}

/**
 * The main-token contract's storage key (below the contract's address) of an
 * address's unbound-gas offset, as hex: "unboundTimeOffset" ‖ the 20 address bytes
 * (reference §4.2). REST `GET /api/v1/storage/<main contract>/<key>` reads it on the node.
 */
export function unboundOffsetKey(address: string): string {
  return `${UNBOUND_OFFSET_PREFIX}${address}`
}

/** "unboundTimeOffset" in hex: the prefix of {@link unboundOffsetKey}. */
export const UNBOUND_OFFSET_PREFIX = Buffer.from('unboundTimeOffset').toString('hex')

/**
 * An offset as the node stores it: the native contracts' PutStorageUInt32, 4 bytes
 * little-endian (the node's source, smartcontract/service/native/utils; the reference
 * names the key only); REST's storage route answers these bytes as hex.
 */
export function encodeUnboundOffset(offset: number): string {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32LE(offset)
  return bytes.toString('hex')
}

/** The offset of {@link encodeUnboundOffset}'s hex; `''` (never set) is 0. Throws RangeError for any other length. */
export function decodeUnboundOffset(hex: string): number {
  if (hex === '') return 0
  if (!/^[0-9a-f]{8}$/i.test(hex)) throw new RangeError(`an unbound-gas offset is 4 bytes, got ${JSON.stringify(hex)}`)
  return Buffer.from(hex, 'hex').readUInt32LE()
}
