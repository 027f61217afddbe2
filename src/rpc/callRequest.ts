/**
 * The call object of eth_call and eth_estimateGas (spec: JSON-RPC objects), and the
 * transaction object of eth_sendTransaction, which shares its fields.
 */
import type { CallRequest } from '../evm/executor.ts'
import { EVM_TX_GAS_CAP } from '../core/constants.ts'
import { LEGACY_ONLY_HINT } from '../core/errors.ts'
import { invalidArgument } from './errors.ts'
import { parseAddress, parseData, parseQuantity } from './params.ts'

/** Fields of a call or transaction object, parsed; absent ones are `undefined`. */
export interface CallFields {
  from: Uint8Array | undefined
  to: Uint8Array | undefined
  gas: bigint | undefined
  gasPrice: bigint | undefined
  value: bigint | undefined
  data: Uint8Array | undefined
  nonce: bigint | undefined
}

/** Parses a call object at argument `index`. EIP-1559 fee fields are refused: the chain has no base fee. */
export function parseCallFields(value: unknown, index: number): CallFields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidArgument(index, 'json: cannot unmarshal non-object into Go value of type ethapi.CallArgs')
  }
  const o = value as Record<string, unknown>
  const opt = <T>(key: string, parse: (v: unknown, i: number) => T): T | undefined => (o[key] === undefined || o[key] === null ? undefined : parse(o[key], index))
  if (o.data !== undefined && o.input !== undefined && o.data !== o.input) {
    throw invalidArgument(index, 'both "data" and "input" are set and not equal')
  }
  if (opt('maxFeePerGas', parseQuantity) !== undefined || opt('maxPriorityFeePerGas', parseQuantity) !== undefined) {
    throw invalidArgument(index, `EIP-1559 fee fields are not supported: ${LEGACY_ONLY_HINT}`)
  }
  return {
    from: opt('from', parseAddress),
    to: opt('to', parseAddress),
    gas: opt('gas', parseQuantity),
    gasPrice: opt('gasPrice', parseQuantity),
    value: opt('value', parseQuantity),
    data: opt('input', parseData) ?? opt('data', parseData),
    nonce: opt('nonce', parseQuantity),
  }
}

/** A call object as a {@link CallRequest}: from defaults to zero, gas to the 6,000,000 cap, price and value to 0 (reference §6.2). */
export function parseCallRequest(value: unknown, index: number): CallRequest {
  const f = parseCallFields(value, index)
  return {
    from: f.from ?? new Uint8Array(20),
    to: f.to,
    data: f.data ?? new Uint8Array(0),
    value: f.value ?? 0n,
    gasLimit: f.gas === undefined || f.gas > EVM_TX_GAS_CAP ? EVM_TX_GAS_CAP : f.gas,
    gasPrice: f.gasPrice ?? 0n,
  }
}
