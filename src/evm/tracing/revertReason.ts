/**
 * The revert reason go-ethereum's callTracer shows (accounts/abi `UnpackRevert`):
 * the message of an `Error(string)` payload, or the text of a `Panic(uint256)` code.
 * Decoded with micro-eth-signer's ABI decoder.
 */
import { createContract } from 'micro-eth-signer/abi.js'

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

const decoders = createContract([
  { type: 'function', name: 'error', inputs: [], outputs: [{ type: 'string' }] },
  { type: 'function', name: 'panic', inputs: [], outputs: [{ type: 'uint256' }] },
] as never) as unknown as { error: { decodeOutput(data: Uint8Array): string }; panic: { decodeOutput(data: Uint8Array): bigint } }

/** The reason of revert data, or `undefined` for a custom error or malformed data. */
export function decodeRevert(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const selector = Buffer.from(data.subarray(0, 4)).toString('hex')
  try {
    if (selector === '08c379a0') return decoders.error.decodeOutput(data.subarray(4))
    if (selector === '4e487b71') {
      const code = decoders.panic.decodeOutput(data.subarray(4))
      return PANIC_REASONS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`
    }
  } catch {
    return undefined
  }
  return undefined
}
