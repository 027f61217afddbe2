/**
 * Parsing of REST path and query values as the real node does (reference §1.3).
 * Every failure is 42002 INVALID PARAMS.
 */
import { fromBase58, InvalidAddressError } from '../native/address.ts'
import { RestError, RestErrorCode } from './errors.ts'

const invalid = (cause?: unknown) => new RestError(RestErrorCode.InvalidParams, '', { cause })

/** A height: decimal (ParseInt base 10), truncated to uint32 as the node does. */
export function parseHeight(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw invalid()
  const value = BigInt(text)
  if (value < -(2n ** 63n) || value >= 2n ** 63n) throw invalid()
  return Number(BigInt.asUintN(32, value))
}

/** A 32-byte hash in REST form (64 hex, no 0x, byte-reversed): its raw bytes. */
export function parseHash(text: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw invalid()
  return Uint8Array.from(Buffer.from(text, 'hex')).reverse()
}

/** An address: 40 hex characters are the reversed REST hex form, anything else Base58 (§1.3 GetAddress). */
export function parseAddress(text: string): Uint8Array {
  if (text.length === 40) {
    if (!/^[0-9a-fA-F]{40}$/.test(text)) throw invalid()
    return Uint8Array.from(Buffer.from(text, 'hex')).reverse()
  }
  return parseBase58(text)
}

/** A Base58 address only (the balance routes, §1.5 matrix). */
export function parseBase58(text: string): Uint8Array {
  try {
    return fromBase58(text)
  } catch (err) {
    if (err instanceof InvalidAddressError) throw invalid(err)
    throw err
  }
}

/** A storage key: paired hex digits of any length (get_storage; its length is checked against the contract's kind after). */
export function parseStorageKey(text: string): string {
  if (!/^([0-9a-fA-F]{2})+$/.test(text)) throw invalid()
  return text
}

/** A flag query value: only the exact value "1" turns it on (§1.3). */
export function flag(value: string | undefined): boolean {
  return value === '1'
}
