/**
 * Revert reasons of failed calls, as go-ethereum reads them (accounts/abi
 * `UnpackRevert`): the message of an `Error(string)` payload, or the text of a
 * `Panic(uint256)` code. Both payloads are a selector and one ABI word or string, read
 * here directly, so that the call paths that use them load no ABI library.
 */
import { bytesToBigInt } from '../util/hex.ts'

/** geth's texts for Solidity panic codes (accounts/abi/abi.go `panicReasons`). */
const PANIC_REASONS = new Map<bigint, string>([
  [0x00n, 'generic panic'],
  [0x01n, 'assert(false)'],
  [0x11n, 'arithmetic underflow or overflow'],
  [0x12n, 'division or modulo by zero'],
  [0x21n, 'enum overflow'],
  [0x22n, 'invalid encoded storage byte array accessed'],
  [0x31n, 'out-of-bounds array access; popping on an empty array'],
  [0x32n, 'out-of-bounds access of an array or bytesN'],
  [0x41n, 'out of memory'],
  [0x51n, 'uninitialized function'],
])

/** The string of an `Error(string)` revert payload, or `undefined` for any other payload. */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  // Error(string) selector 0x08c379a0, then offset, length, bytes.
  if (data.length < 68 || data[0] !== 0x08 || data[1] !== 0xc3 || data[2] !== 0x79 || data[3] !== 0xa0) return undefined
  const length = Number(bytesToBigInt(data.subarray(36, 68)))
  if (68 + length > data.length) return undefined
  return new TextDecoder().decode(data.subarray(68, 68 + length))
}

/**
 * The reason go-ethereum's callTracer shows: {@link decodeRevertReason}, or for a
 * `Panic(uint256)` payload (selector 0x4e487b71) geth's text of its code;
 * `undefined` for a custom error or malformed data.
 */
export function decodeRevert(data: Uint8Array): string | undefined {
  const reason = decodeRevertReason(data)
  if (reason !== undefined) return reason
  if (data.length < 36 || data[0] !== 0x4e || data[1] !== 0x48 || data[2] !== 0x7b || data[3] !== 0x71) return undefined
  const code = bytesToBigInt(data.subarray(4, 36))
  return PANIC_REASONS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`
}
