/**
 * NeoVM stack values as native-invoke scripts produce them, NeoBytes integers, and
 * the conversion of a value into the input bytes a native contract receives
 * (reference §2.5 "How stack values become native input", node
 * vm/neovm/types/neovm_value.go `BuildParamToNative`).
 */
import { BinaryWriter } from './binary.ts'
import { UnsupportedScriptError } from './scriptErrors.ts'
import { toHexRaw } from '../util/hex.ts'

/**
 * A NeoVM stack value. `bytes` is a byte array (PUSH0 and PUSHBYTES/PUSHDATA push
 * these), `int` an integer (PUSHM1, PUSH1..16), `bool` a boolean (never produced by
 * the push opcodes; kept for completeness), `array` a PACKed list, `struct` a
 * NEWSTRUCT filled by APPEND.
 */
export type NeoValue =
  | { type: 'bytes'; value: Uint8Array }
  | { type: 'int'; value: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'array'; items: NeoValue[] }
  | { type: 'struct'; items: NeoValue[] }

/** Deepest nesting the node serialises (`MAX_STRUCT_DEPTH`, vm/neovm/types/struct_value.go). */
export const MAX_NESTING_DEPTH = 10
/** Longest integer operand NeoVM converts from bytes (`MAX_SIZE_FOR_BIGINTEGER`). */
const MAX_INTEGER_BYTES = 32

/**
 * NeoBytes to bigint: little-endian two's complement, empty = 0. Trailing zero bytes
 * are accepted (the SDK pads amounts to 8 bytes: `6400000000000000` = 100), as the
 * node's `BigIntFromNeoBytes` does. Linear in the input length.
 */
export function bigIntFromNeoBytes(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n
  const value = BigInt(`0x${toHexRaw(Uint8Array.from(bytes).reverse())}`)
  return bytes[bytes.length - 1]! & 0x80 ? value - (1n << BigInt(bytes.length * 8)) : value
}

/** bigint to minimal NeoBytes: little-endian two's complement, empty for 0 (node `BigIntToNeoBytes`). */
export function neoBytes(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0)
  const out: number[] = []
  let v = value
  for (;;) {
    const byte = Number(BigInt.asUintN(8, v))
    out.push(byte)
    v >>= 8n
    if ((v === 0n && (byte & 0x80) === 0) || (v === -1n && (byte & 0x80) !== 0)) break
  }
  return Uint8Array.from(out)
}

/**
 * The integer of a stack value as NeoVM reads operands (PACK and NEWSTRUCT counts,
 * the invoke version): ints as they are, byte arrays as NeoBytes (at most 32 bytes),
 * booleans as 0/1. Throws {@link UnsupportedScriptError} for collections.
 */
export function toInteger(value: NeoValue): bigint {
  switch (value.type) {
    case 'int':
      return value.value
    case 'bool':
      return value.value ? 1n : 0n
    case 'bytes':
      if (value.value.length > MAX_INTEGER_BYTES) {
        throw new UnsupportedScriptError(`a ${value.value.length}-byte value used as an integer (at most ${MAX_INTEGER_BYTES} bytes)`)
      }
      return bigIntFromNeoBytes(value.value)
    default:
      throw new UnsupportedScriptError(`an ${value.type} used as an integer`)
  }
}

/**
 * The bytes of a stack value as NeoVM reads byte operands (`PopAsBytes`: the invoke's
 * contract and method): byte arrays as they are, ints as NeoBytes, booleans as
 * `01`/`00`. Throws {@link UnsupportedScriptError} for collections.
 */
export function toBytes(value: NeoValue): Uint8Array {
  switch (value.type) {
    case 'bytes':
      return value.value
    case 'int':
      return neoBytes(value.value)
    case 'bool':
      return Uint8Array.of(value.value ? 1 : 0)
    default:
      throw new UnsupportedScriptError(`an ${value.type} used as a byte array`)
  }
}

/**
 * The native input bytes of `value` (reference §2.5):
 * - bytes → varbytes(bytes);
 * - int → varbytes(NeoBytes(int));
 * - bool → one byte `01`/`00`;
 * - array → varbytes(NeoBytes(count)) ‖ each item;
 * - struct → each field, concatenated, no count.
 *
 * E.g. one transfer state `[Struct(A, B, 100)]` → `01 01 14<A> 14<B> 08 6400000000000000`.
 * Throws {@link UnsupportedScriptError} for circular values and nesting deeper than
 * {@link MAX_NESTING_DEPTH} (the node refuses both).
 */
export function toNativeInput(value: NeoValue): Uint8Array {
  const w = new BinaryWriter()
  const open = new Set<NeoValue[]>()
  const write = (v: NeoValue, depth: number): void => {
    if (depth > MAX_NESTING_DEPTH) throw new UnsupportedScriptError(`arguments nested deeper than ${MAX_NESTING_DEPTH} levels`)
    switch (v.type) {
      case 'bytes':
        w.varbytes(v.value)
        return
      case 'int':
        w.varbytes(neoBytes(v.value))
        return
      case 'bool':
        w.u8(v.value ? 1 : 0)
        return
      case 'array':
      case 'struct':
        if (open.has(v.items)) throw new UnsupportedScriptError('arguments that contain themselves (a circular reference)')
        open.add(v.items)
        if (v.type === 'array') w.varbytes(neoBytes(BigInt(v.items.length)))
        for (const item of v.items) write(item, depth + 1)
        open.delete(v.items)
    }
  }
  write(value, 0)
  return w.finish()
}
