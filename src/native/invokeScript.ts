/**
 * Decoding the NeoVM scripts the chain's SDK builds for native contract calls
 * (reference §2.5): a small stack machine over the opcodes those scripts use, ending
 * in SYSCALL "Ontology.Native.Invoke". Anything else (NeoVM contract calls, other
 * syscalls, Wasm) is refused with {@link UnsupportedScriptError}: the devnet executes
 * native token calls, not NeoVM or Wasm code.
 *
 * This module is the entry point: it re-exports the value helpers, the errors and
 * the builder.
 */
import { NATIVE_INVOKE_SYSCALL } from './invokeBuilder.ts'
import { MAX_NESTING_DEPTH, toBytes, toInteger, type NeoValue } from './neoValue.ts'
import { UnsupportedScriptError } from './scriptErrors.ts'

export { bigIntFromNeoBytes, MAX_NESTING_DEPTH, neoBytes, toBytes, toInteger, toNativeInput, type NeoValue } from './neoValue.ts'
export { InvalidTokenCallError, UnsupportedScriptError } from './scriptErrors.ts'
export { buildNativeInvoke, NATIVE_INVOKE_SYSCALL, pushBytes, pushInteger, pushValue } from './invokeBuilder.ts'

/** A decoded native invoke: what SYSCALL "Ontology.Native.Invoke" pops (reference §2.5). */
export interface NativeInvoke {
  /** The native contract, 20 raw bytes (19 zero bytes then 01 main token, 02 gas token, …). */
  contract: Uint8Array
  /** The method name (ASCII), e.g. `transfer`. */
  method: string
  /** The version operand: 0 in every SDK; the node keeps its low byte, and so does this. */
  version: number
  /** The one argument value (e.g. an array of transfer-state structs). A fresh tree: no sharing, no cycles. */
  args: NeoValue
}

/** NeoVM limits (vm/neovm/params.go, types/struct_value.go): stack items, collection size, struct copy size. */
const STACK_LIMIT = 2048
const MAX_ITEMS = 1024
const MAX_CLONE = 1024

/** Names of opcodes a user may meet in a refused script, for the message. */
const OPCODE_NAMES: Record<number, string> = { 0x61: 'NOP', 0x62: 'JMP', 0x63: 'JMPIF', 0x64: 'JMPIFNOT', 0x65: 'CALL', 0x66: 'RET' }
/** Longest method name the node accepts (`METHOD_LENGTH_LIMIT`, smartcontract/service/neovm). */
const METHOD_LENGTH_LIMIT = 1024

/**
 * Decodes `code` into its native invoke. Opcodes: PUSH0 (00), PUSHBYTES1..75,
 * PUSHDATA1/2/4 (4C/4D/4E), PUSHM1 (4F), PUSH1..16 (51..60), NEWSTRUCT (C6) of 0
 * fields, TOALTSTACK (6B), DUPFROMALTSTACK (6A), FROMALTSTACK (6C), SWAP (7C), APPEND
 * (C8; a struct is copied as NeoVM copies it), PACK (C1; first popped = index 0), and
 * SYSCALL (68) "Ontology.Native.Invoke" as the last instruction, which pops version,
 * contract (20 bytes), method and args. Values left below the args are ignored, as
 * the node ignores them.
 *
 * Linear in `code.length`; the values it builds, and the returned tree (nodes plus
 * byte-array lengths), are bounded by `code.length`. Throws
 * {@link UnsupportedScriptError} for anything else (APPCALL, other syscalls, unknown
 * opcodes, truncated pushes, stack underflow, code after the invoke, no invoke).
 */
export function decodeNativeInvoke(code: Uint8Array): NativeInvoke {
  const stack: NeoValue[] = []
  const alt: NeoValue[] = []
  let budget = code.length
  let pc = 0
  let at = 0
  const err = (reason: string, cause?: unknown) => new UnsupportedScriptError(`${reason} at offset ${at}`, cause === undefined ? undefined : { cause })
  const alloc = () => {
    if (--budget < 0) throw err('the script builds values larger than itself')
  }
  const take = (n: number): Uint8Array => {
    if (n > code.length - pc) throw err(`a push of ${n} bytes past the end of the script`)
    pc += n
    return code.subarray(pc - n, pc)
  }
  const length = (size: 1 | 2 | 4): number => {
    const b = take(size)
    return size === 1 ? b[0]! : size === 2 ? b[0]! | (b[1]! << 8) : (b[0]! | (b[1]! << 8) | (b[2]! << 16)) + b[3]! * 0x1000000
  }
  const push = (value: NeoValue) => {
    if (stack.length + alt.length >= STACK_LIMIT) throw err(`more than ${STACK_LIMIT} stack items`)
    stack.push(value)
  }
  const pop = (what: string): NeoValue => {
    const value = stack.pop()
    if (value === undefined) throw err(`stack underflow (${what})`)
    return value
  }
  const integer = (what: string): bigint => {
    try {
      return toInteger(pop(what))
    } catch (cause) {
      if (cause instanceof UnsupportedScriptError) throw err(`${what}: ${cause.reason}`, cause)
      throw cause
    }
  }
  const cloneStruct = (items: NeoValue[], count: { n: number }): NeoValue => {
    const copy: NeoValue[] = []
    for (const item of items) {
      if (++count.n > MAX_CLONE) throw err(`APPEND copies a struct of more than ${MAX_CLONE} values`)
      alloc()
      copy.push(item.type === 'struct' ? cloneStruct(item.items, count) : item)
    }
    return { type: 'struct', items: copy }
  }

  while (pc < code.length) {
    at = pc
    const op = code[pc++]!
    if (op <= 0x4b) {
      alloc()
      push({ type: 'bytes', value: take(op) })
    } else if (op <= 0x4e) {
      const n = length(op === 0x4c ? 1 : op === 0x4d ? 2 : 4)
      alloc()
      push({ type: 'bytes', value: take(n) })
    } else if (op === 0x4f || (op >= 0x51 && op <= 0x60)) {
      alloc()
      push({ type: 'int', value: op === 0x4f ? -1n : BigInt(op - 0x50) })
    } else if (op === 0x6b) {
      alt.push(pop('TOALTSTACK'))
    } else if (op === 0x6a || op === 0x6c) {
      const top = op === 0x6a ? alt[alt.length - 1] : alt.pop()
      if (top === undefined) throw err(`${op === 0x6a ? 'DUPFROMALTSTACK' : 'FROMALTSTACK'} with an empty alt stack`)
      push(top)
    } else if (op === 0x7c) {
      const a = pop('SWAP')
      const b = pop('SWAP')
      stack.push(a, b)
    } else if (op === 0xc6) {
      if (integer('NEWSTRUCT count') !== 0n) throw err('NEWSTRUCT with fields (the SDK pushes 0, then APPENDs each field)')
      alloc()
      push({ type: 'struct', items: [] })
    } else if (op === 0xc8) {
      const item = pop('APPEND item')
      const target = pop('APPEND target')
      if (target.type !== 'array' && target.type !== 'struct') throw err(`APPEND to a ${target.type} value`)
      if (target.items.length >= MAX_ITEMS) throw err(`a collection of more than ${MAX_ITEMS} items`)
      target.items.push(item.type === 'struct' ? cloneStruct(item.items, { n: 0 }) : item)
    } else if (op === 0xc1) {
      const n = integer('PACK count')
      if (n < 0n || n > MAX_ITEMS || n > stack.length) throw err(`PACK of ${n} items with ${stack.length} on the stack`)
      const items = stack.splice(stack.length - Number(n)).reverse()
      alloc()
      push({ type: 'array', items })
    } else if (op === 0x68) {
      return finishInvoke()
    } else if (op === 0x67 || op === 0x69) {
      throw err(`${op === 0x67 ? 'APPCALL (0x67)' : 'TAILCALL (0x69)'}, a call to NeoVM contract code`)
    } else {
      const name = OPCODE_NAMES[op]
      throw err(`opcode 0x${op.toString(16).padStart(2, '0')}${name === undefined ? '' : ` (${name})`}, which native invokes do not use`)
    }
  }
  at = code.length
  throw err(`the script ends without SYSCALL "${NATIVE_INVOKE_SYSCALL}"`)

  function finishInvoke(): NativeInvoke {
    const nameLength = length(1)
    const name = nameLength < 0xfd ? take(nameLength) : new Uint8Array(0)
    if (!isAscii(name) || String.fromCharCode(...name) !== NATIVE_INVOKE_SYSCALL) {
      throw err(`SYSCALL ${nameLength < 0xfd ? `"${printable(name)}"` : 'with a long name'} (only "${NATIVE_INVOKE_SYSCALL}" is supported)`)
    }
    if (pc !== code.length) throw err(`${code.length - pc} bytes after the native invoke (a script makes exactly one native call)`)
    const version = integer('invoke version')
    if (version < -(2n ** 63n) || version >= 2n ** 63n) throw err('the invoke version is not an int64')
    const contract = bytesOf(pop('invoke contract'), 'invoke contract')
    if (contract.length !== 20) throw err(`the invoke contract is ${contract.length} bytes, not a 20-byte address`)
    const method = bytesOf(pop('invoke method'), 'invoke method')
    if (method.length > METHOD_LENGTH_LIMIT) throw err(`a method name of ${method.length} bytes (at most ${METHOD_LENGTH_LIMIT})`)
    if (!isAscii(method)) throw err(`the method name "${printable(method)}" is not ASCII`)
    const args = freeze(pop('invoke arguments'), { left: code.length }, new Set(), 0)
    return { contract: contract.slice(), method: String.fromCharCode(...method), version: Number(BigInt.asUintN(8, version)), args }
  }

  function bytesOf(value: NeoValue, what: string): Uint8Array {
    try {
      return toBytes(value)
    } catch (cause) {
      if (cause instanceof UnsupportedScriptError) throw err(`${what}: ${cause.reason}`, cause)
      throw cause
    }
  }

  /** A fresh copy of `value`: acyclic, at most MAX_NESTING_DEPTH deep, nodes + bytes within `budget`. */
  function freeze(value: NeoValue, budget: { left: number }, open: Set<NeoValue[]>, depth: number): NeoValue {
    if (depth > MAX_NESTING_DEPTH) throw err(`arguments nested deeper than ${MAX_NESTING_DEPTH} levels`)
    budget.left -= 1 + (value.type === 'bytes' ? value.value.length : 0)
    if (budget.left < 0) throw err('arguments larger than the script (values shared many times)')
    if (value.type !== 'array' && value.type !== 'struct') return value.type === 'bytes' ? { type: 'bytes', value: value.value.slice() } : { ...value }
    if (open.has(value.items)) throw err('arguments that contain themselves (a circular reference)')
    open.add(value.items)
    const items = value.items.map((item) => freeze(item, budget, open, depth + 1))
    open.delete(value.items)
    return { type: value.type, items }
  }
}

function isAscii(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b < 0x20 || b > 0x7e) return false
  return true
}

/** Up to 40 characters of `bytes`, non-printable ones as `?`, for messages. */
function printable(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes.subarray(0, 40)) out += b >= 0x20 && b <= 0x7e ? String.fromCharCode(b) : '?'
  return bytes.length > 40 ? `${out}…` : out
}
