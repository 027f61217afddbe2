/**
 * Native token calls decoded from an invoke (reference §2.5 layouts, §2.6 registry):
 * typed arguments with amounts in the method's own units (v1 for `transfer`,
 * `approve`, `transferFrom`; v2 for their V2 variants).
 */
import { bytesEqual } from '../util/hex.ts'
import { MAIN_TOKEN_ADDRESS, GAS_TOKEN_ADDRESS } from '../chain/constants.ts'
import { toInteger, UnsupportedScriptError, type NativeInvoke, type NeoValue } from './invokeScript.ts'

/** Which token a call goes to. */
export type Token = 'main' | 'gas'

/** One transfer state. */
export interface TransferState {
  from: Uint8Array
  to: Uint8Array
  amount: bigint
}

/** A decoded token call. `v2` marks the V2 variants (v2 units). */
export type TokenCall =
  | { token: Token; method: 'transfer'; v2: boolean; states: TransferState[] }
  | { token: Token; method: 'approve'; v2: boolean; from: Uint8Array; to: Uint8Array; amount: bigint }
  | { token: Token; method: 'transferFrom'; v2: boolean; sender: Uint8Array; from: Uint8Array; to: Uint8Array; amount: bigint }
  | { token: Token; method: 'balanceOf'; v2: boolean; address: Uint8Array }
  | { token: Token; method: 'allowance'; v2: boolean; from: Uint8Array; to: Uint8Array }
  | { token: Token; method: 'name' | 'symbol' | 'decimals' | 'totalSupply'; v2: boolean }

const MAX_U64 = 2n ** 64n - 1n

/** The token call of `invoke`. Throws {@link UnsupportedScriptError} for other contracts, methods or argument shapes. */
export function decodeTokenCall(invoke: NativeInvoke): TokenCall {
  const token: Token | undefined = bytesEqual(invoke.contract, MAIN_TOKEN_ADDRESS)
    ? 'main'
    : bytesEqual(invoke.contract, GAS_TOKEN_ADDRESS)
      ? 'gas'
      : undefined
  if (token === undefined) throw new UnsupportedScriptError('a native contract other than the main and gas tokens')
  const v2 = invoke.method.endsWith('V2')
  const method = v2 ? invoke.method.slice(0, -2) : invoke.method
  const amount = (value: NeoValue | undefined) => {
    if (value === undefined) throw new UnsupportedScriptError(`${invoke.method}: missing amount`)
    const n = toInteger(value)
    if (n < 0n) throw new UnsupportedScriptError(`${invoke.method}: negative amount`)
    if (!v2 && n > MAX_U64) throw new UnsupportedScriptError(`${invoke.method}: amount above u64`)
    return n
  }
  const fields = (value: NeoValue, count: number): NeoValue[] => {
    if (value.type !== 'struct' || value.items.length !== count) {
      throw new UnsupportedScriptError(`${invoke.method}: expected a struct of ${count} fields`)
    }
    return value.items
  }
  switch (method) {
    case 'transfer': {
      if (invoke.args.type !== 'array') throw new UnsupportedScriptError(`${invoke.method}: expected a list of transfer states`)
      const states = invoke.args.items.map((state) => {
        const [from, to, value] = fields(state, 3)
        return { from: address(from, invoke.method), to: address(to, invoke.method), amount: amount(value) }
      })
      return { token, method, v2, states }
    }
    case 'approve': {
      const [from, to, value] = fields(invoke.args, 3)
      return { token, method, v2, from: address(from, invoke.method), to: address(to, invoke.method), amount: amount(value) }
    }
    case 'transferFrom': {
      const [sender, from, to, value] = fields(invoke.args, 4)
      return {
        token, method, v2,
        sender: address(sender, invoke.method), from: address(from, invoke.method), to: address(to, invoke.method), amount: amount(value),
      }
    }
    case 'balanceOf':
      return { token, method, v2, address: address(invoke.args, invoke.method) }
    case 'allowance': {
      const [from, to] = fields(invoke.args, 2)
      return { token, method, v2, from: address(from, invoke.method), to: address(to, invoke.method) }
    }
    case 'name':
    case 'symbol':
      if (v2) break
      return { token, method, v2 }
    case 'decimals':
    case 'totalSupply':
      return { token, method, v2 }
  }
  throw new UnsupportedScriptError(`method ${invoke.method} of the ${token} token`)
}

function address(value: NeoValue | undefined, method: string): Uint8Array {
  if (value?.type !== 'bytes' || value.value.length !== 20) throw new UnsupportedScriptError(`${method}: expected a 20-byte address`)
  return value.value.slice()
}
