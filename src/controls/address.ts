/**
 * Addresses as the devnet controls take them: either rendering of the same 20 bytes,
 * `0x` + 40 hex (EVM) or Base58 (native, reference §3).
 */
import { fromBase58, InvalidAddressError } from '../native/address.ts'
import { fromHex } from '../util/hex.ts'

/** The 20 bytes of `address`. Throws {@link InvalidAddressError} for anything else. */
export function parseAnyAddress(address: string): Uint8Array {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return fromHex(address)
  if (address.startsWith('0x')) throw new InvalidAddressError(`not a 20-byte hex address: ${address}`)
  return fromBase58(address)
}
