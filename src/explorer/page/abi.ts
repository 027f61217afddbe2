/**
 * ABI decoding for the page: a call's input, a log, revert data, by an ABI item the
 * artifacts gave (api/contractTypes.ts), with micro-eth-signer's decoder (Solidity ABI
 * spec, "Formal Specification of the Encoding"). Each decoded value is rendered as text
 * (integers in decimal, addresses and bytes as lower-case 0x-hex, tuples as
 * `{name value, …}`), so the page shows it as a text node. Data that does not decode
 * by the item (another contract's function with the same selector, a truncated input)
 * gives `undefined`: the page then shows the raw bytes.
 */
import { createContract, decodeError } from 'micro-eth-signer/abi.js'
import type { AbiParam, ExplorerAbiItem } from '../api/contractTypes.ts'
import { bytesOfHex as bytesOf, hexOf } from './format.ts'

/** One decoded argument: its name (`''` when unnamed), ABI type and value as text. */
export interface DecodedArg {
  readonly name: string
  readonly type: string
  readonly value: string
}

/** A decoded call, event or error: `name` and its arguments in order. */
export interface Decoded {
  readonly name: string
  readonly args: readonly DecodedArg[]
}

/** `transfer(to 0x…, amount 5)`: the name and each argument as `name value` (or the value alone when unnamed). */
export function decodedText({ name, args }: Decoded): string {
  return `${name}(${args.map((a) => (a.name === '' ? a.value : `${a.name} ${a.value}`)).join(', ')})`
}

/** A decoded value as text (micro-eth-signer decodes integers to bigint, bytes to Uint8Array, tuples to objects or arrays). */
export function valueText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array) return hexOf(value)
  if (typeof value === 'string') return /^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (Array.isArray(value)) return `[${value.map(valueText).join(', ')}]`
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([k, v]) => `${k} ${valueText(v)}`)
      .join(', ')}}`
  return String(value)
}

/**
 * The values of `params` ABI-encoded in `data` (a tuple of them, as a call's arguments
 * after the selector), in order; throws when the bytes do not decode. Decoded as the
 * outputs of a function with the parameters unnamed, so the result is positional.
 */
function decodeParams(params: readonly AbiParam[], data: Uint8Array): unknown[] {
  if (params.length === 0) return []
  const outputs = params.map(({ type, components }) => (components === undefined ? { type } : { type, components }))
  const contract = createContract([{ type: 'function', name: 'f', inputs: [], outputs }] as never) as unknown as { f: { decodeOutput: (b: Uint8Array) => unknown } }
  const decoded = contract.f.decodeOutput(data)
  return params.length === 1 ? [decoded] : (decoded as unknown[])
}

function named(params: readonly AbiParam[], values: readonly unknown[]): DecodedArg[] {
  return params.map((p, i) => ({ name: p.name ?? '', type: p.type, value: valueText(values[i]) }))
}

/** A call's `input` (0x-hex, selector first) by the function `item`, or undefined when it does not decode by it. */
export function decodeCall(item: ExplorerAbiItem, input: string): Decoded | undefined {
  if (!input.toLowerCase().startsWith(item.selector)) return undefined
  try {
    return { name: item.name, args: named(item.inputs, decodeParams(item.inputs, bytesOf(input.slice(10)))) }
  } catch {
    return undefined
  }
}

/** A function's return data (0x-hex) by its `outputs`, `name value` or the value alone each; undefined when it has none or they do not decode. */
export function decodeReturn(item: ExplorerAbiItem, output: string | undefined): DecodedArg[] | undefined {
  if (item.outputs === undefined || item.outputs.length === 0 || output === undefined || output === '0x') return undefined
  try {
    return named(item.outputs, decodeParams(item.outputs, bytesOf(output)))
  } catch {
    return undefined
  }
}

/** Whether an indexed parameter's topic holds its value (a static type) rather than the keccak-256 of it (strings, bytes, arrays, tuples). */
function valueInTopic(type: string): boolean {
  return !(type === 'string' || type === 'bytes' || type.endsWith(']') || type.startsWith('tuple'))
}

/**
 * A log by the event `item` (topic 0 its selector): indexed parameters from the topics
 * after it (a hashed one shown as its hash), the others from `data`; undefined when the
 * topics or data do not fit it.
 */
export function decodeLog(item: ExplorerAbiItem, topics: readonly string[], data: string): Decoded | undefined {
  if (item.anonymous === true || topics[0]?.toLowerCase() !== item.selector) return undefined
  const indexed = item.inputs.filter((p) => p.indexed === true)
  if (topics.length !== indexed.length + 1) return undefined
  try {
    const plain = item.inputs.filter((p) => p.indexed !== true)
    const values = decodeParams(plain, bytesOf(data))
    let topic = 1
    let value = 0
    const args = item.inputs.map((p) => {
      if (p.indexed !== true) return { name: p.name ?? '', type: p.type, value: valueText(values[value++]) }
      const raw = topics[topic++]!
      return { name: p.name ?? '', type: p.type, value: valueInTopic(p.type) ? valueText(decodeParams([p], bytesOf(raw))[0]) : `${raw.toLowerCase()} (hashed)` }
    })
    return { name: item.name, args }
  } catch {
    return undefined
  }
}

/** Revert data (0x-hex) by the custom error `item` (its selector first), or undefined when it does not decode by it. */
export function decodeCustomError(item: ExplorerAbiItem, data: string): Decoded | undefined {
  return item.type === 'error' ? decodeCall(item, data) : undefined
}

/**
 * Revert data as Solidity's built-in errors: `Error(string)` (a `require` or `revert`
 * with a reason) and `Panic(uint256)` with what its code means (an assert, division by
 * zero, …); undefined for other data.
 */
export function decodeBuiltinError(data: string): Decoded | undefined {
  let decoded: ReturnType<typeof decodeError>
  try {
    decoded = decodeError(data)
  } catch {
    return undefined
  }
  if (decoded === undefined || (decoded.name !== 'Error' && decoded.name !== 'Panic')) return undefined
  if (decoded.name === 'Error') return { name: 'Error', args: [{ name: '', type: 'string', value: valueText(decoded.args) }] }
  return { name: 'Panic', args: [{ name: '', type: 'uint256', value: `${valueText(decoded.args)}: ${decoded.message}` }] }
}
