/**
 * Native token calls decoded from an invoke (reference §2.5 method layouts, §2.6
 * registry). The arguments are decoded the way the node's native contracts decode
 * them: from the native input bytes (`toNativeInput`) with the node's readers
 * (smartcontract/service/native/utils/serialization.go): addresses are varbytes of
 * exactly 20 bytes, v1 amounts and the state count `DecodeVarUint` (0..2^64-1), v2
 * amounts varbytes NeoBytes. Bytes after the last field are ignored, as the node
 * ignores them. Amounts stay in the method's own units: v1 (main whole tokens, gas
 * 1e-9) for `transfer`, `approve`, `transferFrom`; v2 (main 1e-9, gas 1e-18) for
 * their V2 variants.
 */
import { GAS_TOKEN_ADDRESS, MAIN_TOKEN_ADDRESS } from '../core/constants.ts'
import { bytesEqual, toHexRaw } from '../util/hex.ts'
import type { NativeInvoke } from './invokeScript.ts'
import { bigIntFromNeoBytes, toNativeInput, type NeoValue } from './neoValue.ts'
import { InvalidTokenCallError, UnsupportedScriptError } from './scriptErrors.ts'

/** Which token a call goes to: main = contract 0x…01, gas = 0x…02. */
export type Token = 'main' | 'gas'

/** One transfer state; `amount` in the method's units (v1 or v2). */
export interface TransferState {
  from: Uint8Array
  to: Uint8Array
  amount: bigint
}

/**
 * A decoded token call. `method` is the base name; `v2` marks the V2 variant
 * (`transferV2` = `{ method: 'transfer', v2: true }`), whose amounts are v2 units.
 * Addresses are 20 raw bytes. `name` and `symbol` have no V2 variant.
 */
export type TokenCall =
  | { token: Token; method: 'transfer'; v2: boolean; states: TransferState[] }
  | { token: Token; method: 'approve'; v2: boolean; from: Uint8Array; to: Uint8Array; amount: bigint }
  | { token: Token; method: 'transferFrom'; v2: boolean; sender: Uint8Array; from: Uint8Array; to: Uint8Array; amount: bigint }
  | { token: Token; method: 'balanceOf'; v2: boolean; address: Uint8Array }
  | { token: Token; method: 'allowance'; v2: boolean; from: Uint8Array; to: Uint8Array }
  | { token: Token; method: 'name' | 'symbol' | 'decimals' | 'totalSupply'; v2: boolean }

type Method = TokenCall['method']

/** The SDK's argument shape of each method (reference §2.5 table), for messages. */
const LAYOUTS: Record<Method, string> = {
  transfer: 'Array[Struct(from, to, amount), …]',
  approve: 'Struct(from, to, amount)',
  transferFrom: 'Struct(sender, from, to, amount)',
  balanceOf: 'the address bytes',
  allowance: 'Struct(from, to)',
  name: 'none',
  symbol: 'none',
  decimals: 'none',
  totalSupply: 'none',
}

/** Native method name → base method and V2 flag (reference §2.6). */
const METHODS = new Map<string, { method: Method; v2: boolean }>()
for (const method of Object.keys(LAYOUTS) as Method[]) {
  METHODS.set(method, { method, v2: false })
  if (method !== 'name' && method !== 'symbol') METHODS.set(`${method}V2`, { method, v2: true })
}

/** Names of the other native contracts (reference §0), for messages. */
const NATIVE_CONTRACTS: Record<number, string> = {
  0x03: 'ONT ID',
  0x04: 'global params',
  0x06: 'auth',
  0x07: 'governance',
  0x08: 'header sync',
  0x09: 'cross chain',
  0x0a: 'lock proxy',
  0x0b: 'ontfs',
  0xff: 'system',
}

const MAX_U64 = 2n ** 64n - 1n

/** The token of a native contract address, or `undefined` for any other contract. */
export function tokenOf(contract: Uint8Array): Token | undefined {
  if (bytesEqual(contract, MAIN_TOKEN_ADDRESS)) return 'main'
  if (bytesEqual(contract, GAS_TOKEN_ADDRESS)) return 'gas'
  return undefined
}

/** The 20-byte contract address of `token`. */
export function tokenContract(token: Token): Uint8Array {
  return (token === 'main' ? MAIN_TOKEN_ADDRESS : GAS_TOKEN_ADDRESS).slice()
}

/** The native method name of `call`: `transfer`, `transferV2`, … */
export function nativeMethodName(call: TokenCall): string {
  return call.v2 ? `${call.method}V2` : call.method
}

/**
 * The token call of `invoke`: contract 0x…01 or 0x…02, one of the methods of
 * §2.6 (`transfer`, `approve`, `transferFrom`, `balanceOf`, `allowance`, `decimals`,
 * `totalSupply` and their V2 forms, `name`, `symbol`). The query methods ignore
 * their arguments, as the node does. Throws {@link UnsupportedScriptError} for other
 * contracts and methods, {@link InvalidTokenCallError} (a subclass) when the
 * arguments do not decode: an address that is not 20 bytes, a negative amount, a v1
 * amount or state count above u64, truncated input.
 */
export function decodeTokenCall(invoke: NativeInvoke): TokenCall {
  const token = tokenOf(invoke.contract)
  if (token === undefined) {
    const id = invoke.contract.subarray(0, 19).every((b) => b === 0) ? NATIVE_CONTRACTS[invoke.contract[19]!] : undefined
    throw new UnsupportedScriptError(`a call to native contract ${toHexRaw(invoke.contract)}${id === undefined ? '' : ` (${id})`}; only the main token (…01) and the gas token (…02) run`)
  }
  const entry = METHODS.get(invoke.method)
  if (entry === undefined) {
    throw new UnsupportedScriptError(`method "${invoke.method}" of the ${token} token (supported: ${[...METHODS.keys()].join(', ')})`)
  }
  const { method, v2 } = entry
  const fail = (reason: string, cause?: unknown): never => {
    const expected = `expected arguments ${LAYOUTS[method]}, got ${describe(invoke.args, 0)}`
    throw new InvalidTokenCallError(token, invoke.method, `${reason}; ${expected}`, cause === undefined ? undefined : { cause })
  }
  if (method === 'name' || method === 'symbol' || method === 'decimals' || method === 'totalSupply') return { token, method, v2 }

  let input: Uint8Array
  try {
    input = toNativeInput(invoke.args)
  } catch (cause) {
    if (cause instanceof UnsupportedScriptError) return fail(cause.reason, cause)
    throw cause
  }
  const read = reader(input, fail)
  const amount = (what: string) => read.amount(what, v2)
  switch (method) {
    case 'transfer': {
      const count = read.amount('the state count', false)
      const states: TransferState[] = []
      for (let i = 0n; i < count; i++) {
        states.push({ from: read.address(`states[${i}].from`), to: read.address(`states[${i}].to`), amount: amount(`states[${i}].amount`) })
      }
      return { token, method, v2, states }
    }
    case 'approve':
      return { token, method, v2, from: read.address('from'), to: read.address('to'), amount: amount('amount') }
    case 'transferFrom':
      return { token, method, v2, sender: read.address('sender'), from: read.address('from'), to: read.address('to'), amount: amount('amount') }
    case 'balanceOf':
      return { token, method, v2, address: read.address('address') }
    case 'allowance':
      return { token, method, v2, from: read.address('from'), to: read.address('to') }
  }
}

/** The node's native-input readers over `input`; failures go to `fail`. */
function reader(input: Uint8Array, fail: (reason: string) => never) {
  let pos = 0
  const varBytes = (what: string): Uint8Array => {
    const tag = input[pos]
    if (tag === undefined) return fail(`${what} is missing`)
    const size = tag < 0xfd ? 0 : tag === 0xfd ? 2 : tag === 0xfe ? 4 : 8
    if (pos + 1 + size > input.length) return fail(`${what} is truncated`)
    let length = tag < 0xfd ? tag : 0
    for (let k = size; k >= 1; k--) length = length * 256 + input[pos + k]!
    if (size > 0 && length < (size === 2 ? 0xfd : size === 4 ? 0x10000 : 0x100000000)) fail(`${what} has a non-minimal length prefix`)
    const start = pos + 1 + size
    if (length > input.length - start) return fail(`${what} is truncated`)
    pos = start + length
    return input.slice(start, pos)
  }
  return {
    address(what: string): Uint8Array {
      const bytes = varBytes(what)
      return bytes.length === 20 ? bytes : fail(`${what} is ${bytes.length} bytes, not a 20-byte address`)
    },
    /** v1 (`DecodeVarUint`): 0..2^64-1; v2: any non-negative NeoBytes integer. */
    amount(what: string, v2: boolean): bigint {
      const value = bigIntFromNeoBytes(varBytes(what))
      if (value < 0n) return fail(`${what} is negative (${value})`)
      if (!v2 && value > MAX_U64) return fail(`${what} ${value} does not fit in u64`)
      return value
    },
  }
}

/** A short shape of `value` for messages: `Array[Struct(bytes[20], bytes[20], int)]`. */
function describe(value: NeoValue, depth: number): string {
  switch (value.type) {
    case 'bytes':
      return `bytes[${value.value.length}]`
    case 'int':
    case 'bool':
      return value.type
    default: {
      if (depth >= 3) return value.type === 'array' ? 'Array[…]' : 'Struct(…)'
      const items = value.items.slice(0, 4).map((item) => describe(item, depth + 1))
      if (value.items.length > 4) items.push(`… ${value.items.length} items`)
      return value.type === 'array' ? `Array[${items.join(', ')}]` : `Struct(${items.join(', ')})`
    }
  }
}
