/**
 * Building native-invoke scripts byte-for-byte as ontology-ts-sdk does
 * (reference §2.5; SDK `buildNativeCodeScript` / `makeNativeContractTx`), for tests
 * and dev tooling:
 *
 * `<push args> ‖ push(method ascii) ‖ 14 contract(20) ‖ push(version) ‖ 68 16 "Ontology.Native.Invoke"`
 */
import { BinaryWriter } from './binary.ts'
import { neoBytes, type NeoValue } from './neoValue.ts'

/** The syscall every native invoke ends with. */
export const NATIVE_INVOKE_SYSCALL = 'Ontology.Native.Invoke'

/**
 * The script calling `method` of the native `contract` (20 raw bytes) with `args`
 * (one value: the SDK pushes a list of transfer states as an `array`, an approve as
 * a `struct`, a balance query as the address `bytes`). `version` is 0 in every SDK.
 */
export function buildNativeInvoke(contract: Uint8Array, method: string, args: NeoValue, version = 0): Uint8Array {
  const w = new BinaryWriter()
  pushValue(w, args)
  pushBytes(w, new TextEncoder().encode(method))
  pushBytes(w, contract)
  pushInteger(w, BigInt(version))
  w.u8(0x68)
  pushBytes(w, new TextEncoder().encode(NATIVE_INVOKE_SYSCALL))
  return w.finish()
}

/** PUSHBYTES0..75 (`00`..`4B`), else PUSHDATA1/2/4 (`4C`/`4D`/`4E`) with a u8/u16/u32 LE length. */
export function pushBytes(w: BinaryWriter, bytes: Uint8Array): void {
  const n = bytes.length
  if (n <= 75) w.u8(n)
  else if (n <= 0xff) w.u8(0x4c).u8(n)
  else if (n <= 0xffff)
    w.u8(0x4d)
      .u8(n & 0xff)
      .u8(n >>> 8)
  else w.u8(0x4e).u32(n)
  w.bytes(bytes)
}

/**
 * An integer as the SDK pushes it (`pushBigNum`): 0 → `00`, -1 → `4F`, 1..15 →
 * `51`..`5F`, anything else NeoBytes zero-padded on the right to 8 bytes
 * ("ledgerCompatible": 16 → `08 1000000000000000`, 2^64-1 → 9 bytes unpadded).
 * Negative values are padded with `FF` so they keep their value; the SDK pads them
 * with zeros, which changes the value (-5 would become 251).
 */
export function pushInteger(w: BinaryWriter, value: bigint): void {
  if (value === 0n) return void w.u8(0x00)
  if (value === -1n) return void w.u8(0x4f)
  if (value >= 1n && value <= 15n) return void w.u8(0x50 + Number(value))
  const bytes = neoBytes(value)
  if (bytes.length >= 8) return pushBytes(w, bytes)
  const padded = new Uint8Array(8).fill(value < 0n ? 0xff : 0x00)
  padded.set(bytes)
  pushBytes(w, padded)
}

/**
 * A value as the SDK pushes it: bytes by {@link pushBytes}, ints by
 * {@link pushInteger}, booleans as `51`/`00`; a struct as `00 C6 6B`, then per field
 * `<field> 6A 7C C8`, then `6C`; an array as its items in reverse, then the count,
 * then `C1` (PACK).
 */
export function pushValue(w: BinaryWriter, value: NeoValue): void {
  switch (value.type) {
    case 'bytes':
      return pushBytes(w, value.value)
    case 'int':
      return pushInteger(w, value.value)
    case 'bool':
      return void w.u8(value.value ? 0x51 : 0x00)
    case 'struct':
      w.u8(0x00).u8(0xc6).u8(0x6b)
      for (const field of value.items) {
        pushValue(w, field)
        w.u8(0x6a).u8(0x7c).u8(0xc8)
      }
      return void w.u8(0x6c)
    case 'array':
      for (let i = value.items.length - 1; i >= 0; i--) pushValue(w, value.items[i]!)
      pushInteger(w, BigInt(value.items.length))
      return void w.u8(0xc1)
  }
}
