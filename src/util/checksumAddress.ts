/**
 * EIP-55 mixed-case addresses: the form Anvil, Hardhat, viem's `getAddress` and ethers'
 * `getAddress` print, so a dev account's address compares equal to the addresses
 * those libraries decode.
 */
import { keccak256 } from './hash.ts'
import { toHexRaw, type Hex } from './hex.ts'

/**
 * The EIP-55 rendering of a 20-byte address (raw bytes, or hex with or without `0x`,
 * any case): a hex letter is upper case where the matching hex digit of
 * keccak256(lower-case hex, as ASCII) is 8 or more (EIP-55's specification).
 */
export function checksumAddress(address: Uint8Array | string): Hex {
  const lower = typeof address === 'string' ? address.replace(/^0x/i, '').toLowerCase() : toHexRaw(address)
  const hash = toHexRaw(keccak256(new TextEncoder().encode(lower)))
  let out = '0x'
  for (let i = 0; i < lower.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  return out as Hex
}
