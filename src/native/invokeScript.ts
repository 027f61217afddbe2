/**
 * Decoding the NeoVM scripts the chain's SDK builds for native contract calls
 * (reference §2.5): a small stack machine over the opcodes those scripts use, ending
 * in SYSCALL "Ontology.Native.Invoke". Anything else (NeoVM contract calls, other
 * syscalls, Wasm) is refused: the devnet executes native token calls, not NeoVM or
 * Wasm code.
 */
import { BinaryWriter } from './binary.ts'

/** A NeoVM stack value. Integers are bigint; structs and arrays hold values. */
export type NeoValue =
  | { type: 'bytes'; value: Uint8Array }
  | { type: 'int'; value: bigint }
  | { type: 'bool'; value: boolean }
  | { type: 'array'; items: NeoValue[] }
  | { type: 'struct'; items: NeoValue[] }

/** A decoded native invoke. */
export interface NativeInvoke {
  /** 20 raw bytes of the native contract. */
  contract: Uint8Array
  method: string
  version: number
  args: NeoValue
}

/** The script is not a native contract call the devnet can execute. */
export class UnsupportedScriptError extends Error {
  override name = 'UnsupportedScriptError'
  constructor(detail: string) {
    super(`unsupported invocation script: ${detail}; this devnet executes native main- and gas-token calls only, not NeoVM or Wasm contract code`)
  }
}

const NATIVE_INVOKE = 'Ontology.Native.Invoke'
const MAX_ITEMS = 1024

/** Decodes `code` into its native invoke. Throws {@link UnsupportedScriptError}. */
export function decodeNativeInvoke(code: Uint8Array): NativeInvoke {
  const stack: NeoValue[] = []
  const alt: NeoValue[] = []
  const view = new DataView(code.buffer, code.byteOffset, code.byteLength)
  const pop = (from: NeoValue[] = stack): NeoValue => {
    const v = from.pop()
    if (v === undefined) throw new UnsupportedScriptError('stack underflow')
    return v
  }
  const read = (at: number, n: number): Uint8Array => {
    if (at + n > code.length) throw new UnsupportedScriptError('script truncated')
    return code.subarray(at, at + n)
  }
  let i = 0
  while (i < code.length) {
    const op = code[i++]!
    if (op === 0x00) stack.push({ type: 'bytes', value: new Uint8Array(0) })
    else if (op <= 0x4b) (stack.push({ type: 'bytes', value: read(i, op) }), (i += op))
    else if (op === 0x4c) {
      const n = read(i, 1)[0]!
      stack.push({ type: 'bytes', value: read(i + 1, n) })
      i += 1 + n
    } else if (op === 0x4d) {
      const n = (read(i, 2), view.getUint16(i, true))
      stack.push({ type: 'bytes', value: read(i + 2, n) })
      i += 2 + n
    } else if (op === 0x4e) {
      const n = (read(i, 4), view.getUint32(i, true))
      stack.push({ type: 'bytes', value: read(i + 4, n) })
      i += 4 + n
    } else if (op === 0x4f) stack.push({ type: 'int', value: -1n })
    else if (op >= 0x51 && op <= 0x60) stack.push({ type: 'int', value: BigInt(op - 0x50) })
    else if (op === 0xc6) {
      const n = toInteger(pop())
      if (n !== 0n) throw new UnsupportedScriptError('NEWSTRUCT with fields')
      stack.push({ type: 'struct', items: [] })
    } else if (op === 0x6b) alt.push(pop())
    else if (op === 0x6c) stack.push(pop(alt))
    else if (op === 0x6a) {
      const top = alt[alt.length - 1]
      if (top === undefined) throw new UnsupportedScriptError('alt stack underflow')
      stack.push(top)
    } else if (op === 0x7c) {
      const a = pop()
      const b = pop()
      stack.push(a, b)
    } else if (op === 0xc8) {
      const item = pop()
      const target = pop()
      if (target.type !== 'struct' && target.type !== 'array') throw new UnsupportedScriptError('APPEND to a non-collection')
      if (target.items.length >= MAX_ITEMS) throw new UnsupportedScriptError('collection too large')
      target.items.push(item.type === 'struct' ? { type: 'struct', items: [...item.items] } : item)
    } else if (op === 0xc1) {
      const n = toInteger(pop())
      if (n < 0n || n > BigInt(MAX_ITEMS) || n > BigInt(stack.length)) throw new UnsupportedScriptError('PACK count out of range')
      const items: NeoValue[] = []
      for (let k = 0n; k < n; k++) items.push(pop())
      stack.push({ type: 'array', items })
    } else if (op === 0x68) {
      const n = read(i, 1)[0]!
      const name = new TextDecoder().decode(read(i + 1, n))
      i += 1 + n
      if (name !== NATIVE_INVOKE) throw new UnsupportedScriptError(`SYSCALL ${name}`)
      if (i !== code.length) throw new UnsupportedScriptError('code after the native invoke')
      const version = toInteger(pop())
      const contract = pop()
      const method = pop()
      const args = pop()
      if (contract.type !== 'bytes' || contract.value.length !== 20) throw new UnsupportedScriptError('contract is not a 20-byte address')
      if (method.type !== 'bytes') throw new UnsupportedScriptError('method is not a name')
      if (stack.length > 0) throw new UnsupportedScriptError('values left on the stack')
      return { contract: contract.value.slice(), method: new TextDecoder().decode(method.value), version: Number(version), args }
    } else if (op === 0x67) throw new UnsupportedScriptError('APPCALL (a NeoVM contract call)')
    else throw new UnsupportedScriptError(`opcode 0x${op.toString(16).padStart(2, '0')}`)
  }
  throw new UnsupportedScriptError('no native invoke (SYSCALL Ontology.Native.Invoke)')
}

/** Integer of a stack value: ints as they are, bytes as NeoBytes (little-endian two's complement). */
export function toInteger(value: NeoValue): bigint {
  if (value.type === 'int') return value.value
  if (value.type === 'bool') return value.value ? 1n : 0n
  if (value.type === 'bytes') return bigIntFromNeoBytes(value.value)
  throw new UnsupportedScriptError('expected an integer')
}

/** NeoBytes to bigint: little-endian two's complement; trailing zero bytes allowed (the SDK pads to 8). */
export function bigIntFromNeoBytes(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n
  let value = 0n
  for (let k = bytes.length - 1; k >= 0; k--) value = (value << 8n) | BigInt(bytes[k]!)
  if (bytes[bytes.length - 1]! & 0x80) value -= 1n << BigInt(bytes.length * 8)
  return value
}

/** bigint to minimal NeoBytes (empty for 0). */
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

/** Builds the script of a native invoke as the SDK does (args pushed, then method, contract, version 0, SYSCALL). */
export function buildNativeInvoke(contract: Uint8Array, method: string, args: NeoValue): Uint8Array {
  const w = new BinaryWriter()
  pushValue(w, args)
  pushBytes(w, new TextEncoder().encode(method))
  pushBytes(w, contract)
  w.u8(0x00).u8(0x68)
  pushBytes(w, new TextEncoder().encode(NATIVE_INVOKE))
  return w.finish()
}

function pushBytes(w: BinaryWriter, bytes: Uint8Array): void {
  if (bytes.length === 0) w.u8(0)
  else if (bytes.length <= 75) w.u8(bytes.length).bytes(bytes)
  else if (bytes.length <= 0xff) w.u8(0x4c).u8(bytes.length).bytes(bytes)
  else w.u8(0x4d).u8(bytes.length & 0xff).u8(bytes.length >> 8).bytes(bytes)
}

function pushValue(w: BinaryWriter, value: NeoValue): void {
  switch (value.type) {
    case 'bytes':
      return pushBytes(w, value.value)
    case 'bool':
      return void w.u8(value.value ? 0x51 : 0x00)
    case 'int': {
      const v = value.value
      if (v === 0n) return void w.u8(0x00)
      if (v === -1n) return void w.u8(0x4f)
      if (v >= 1n && v <= 16n) return void w.u8(0x50 + Number(v))
      // The SDK's "ledger compatible" form: NeoBytes padded with zeros to 8 bytes.
      const bytes = neoBytes(v)
      const padded = new Uint8Array(Math.max(8, bytes.length))
      padded.set(bytes)
      if (v < 0n) padded.fill(0xff, bytes.length)
      return pushBytes(w, padded)
    }
    case 'struct':
      w.u8(0x00).u8(0xc6).u8(0x6b)
      for (const item of value.items) {
        pushValue(w, item)
        w.u8(0x6a).u8(0x7c).u8(0xc8)
      }
      return void w.u8(0x6c)
    case 'array':
      for (const item of [...value.items].reverse()) pushValue(w, item)
      pushValue(w, { type: 'int', value: BigInt(value.items.length) })
      return void w.u8(0xc1)
  }
}
