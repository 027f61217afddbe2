/**
 * Renderings the page shares: amounts in base and whole units, addresses in both forms
 * (reference §3: Base58Check of 0x17 ‖ the 20 bytes; the same bytes are the 0x address).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import bs58 from 'bs58'

/** `value` base units as a decimal of `decimals` places, trailing zeros dropped: 1500000000n, 9 → "1.5". */
export function units(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`
}

/** The bytes of 0x-hex (or bare hex). */
export function bytesOfHex(hex: string): Uint8Array {
  const clean = hex.startsWith('0x') ? hex.slice(2) : hex
  return Uint8Array.from(clean.match(/../g) ?? [], (b) => Number.parseInt(b, 16))
}

/** Bytes as lower-case 0x-hex. */
export function hexOf(bytes: Uint8Array): string {
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** The Base58 form of a 0x address. */
export function toBase58(address: string): string {
  const payload = new Uint8Array(21)
  payload[0] = 0x17
  payload.set(bytesOfHex(address), 1)
  const check = sha256(sha256(payload)).subarray(0, 4)
  const whole = new Uint8Array(25)
  whole.set(payload)
  whole.set(check, 21)
  return bs58.encode(whole)
}

/** The 0x form of a Base58 address, or undefined when it is not one (version, length, checksum). */
export function fromBase58(text: string): string | undefined {
  let decoded: Uint8Array
  try {
    decoded = bs58.decode(text)
  } catch {
    return undefined
  }
  if (decoded.length !== 25 || decoded[0] !== 0x17) return undefined
  const check = sha256(sha256(decoded.subarray(0, 21))).subarray(0, 4)
  if (check.some((b, i) => b !== decoded[21 + i])) return undefined
  return hexOf(decoded.subarray(1, 21))
}

/** A quantity (0x hex) as a decimal string. */
export function quantity(hex: string | null | undefined): string {
  return hex === null || hex === undefined ? '' : BigInt(hex).toString()
}
