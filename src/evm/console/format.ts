/**
 * console.log lines as Hardhat prints them (hardhat 3.x, network-manager/edr/utils/
 * console-logger.js): the call data is decoded by its selector (signatures.ts);
 * every argument becomes a string (integers in decimal, booleans `true`/`false`,
 * addresses and bytes as lower-case 0x-hex, strings as they are); in the first
 * argument `%d` and `%i` become `%s` (numbers may exceed a JS number; `%%d` stays);
 * then Node's `util.format(...args)` applies `%s`, `%o`, `%O`, `%j`, `%c`, `%%` and
 * joins extra arguments with spaces. Loaded on the first console call, with the ABI
 * decoder of micro-eth-signer.
 */
import { format } from 'node:util'
import { createContract } from 'micro-eth-signer/abi.js'
import { toHex } from '../../util/hex.ts'
import { consoleSelectorTable, type ConsoleArgType } from './signatures.ts'

type Decoder = (data: Uint8Array) => unknown
const decoders = new Map<readonly ConsoleArgType[], Decoder>()

/** An ABI decoder of `types` (the call's arguments without selector), as the outputs of a function. */
function decoderOf(types: readonly ConsoleArgType[]): Decoder {
  let decoder = decoders.get(types)
  if (decoder === undefined) {
    const abi = [{ type: 'function', name: 'log', inputs: [], outputs: types.map((type) => ({ type })) }] as const
    const contract = createContract(abi as never) as unknown as { log: { decodeOutput: Decoder } }
    decoder = (data) => contract.log.decodeOutput(data)
    decoders.set(types, decoder)
  }
  return decoder
}

function argumentText(type: ConsoleArgType, value: unknown): string {
  if (type === 'bool') return value === true ? 'true' : 'false'
  if (value instanceof Uint8Array) return toHex(value)
  if (typeof value === 'bigint') return value.toString(10)
  return String(value)
}

/**
 * The line Hardhat prints for one console call (`data`: selector and arguments), or
 * `undefined` when the selector is not a console.log overload or the arguments do not
 * decode (Hardhat skips those too).
 */
export function formatConsoleCall(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const sig = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0
  const types = consoleSelectorTable().get(sig)
  if (types === undefined) return undefined
  if (types.length === 0) return ''
  let decoded: unknown
  try {
    decoded = decoderOf(types)(data.subarray(4))
  } catch {
    return undefined
  }
  const values = types.length === 1 ? [decoded] : (decoded as unknown[])
  const args = types.map((type, i) => argumentText(type, values[i]))
  args[0] = args[0]!.replace(/((?<!%)(?:%%)*)(%[di])/g, '$1%s')
  return format(...args)
}
