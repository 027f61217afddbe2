/**
 * Parity's (OpenEthereum's) flat traces from go-ethereum's callTracer tree
 * (callTracer.ts): one entry per call frame, depth first, each with its
 * `traceAddress` (child indices from the transaction's frame) and `subtraces`. Two
 * readers share it: go-ethereum's flatCallTracer (flatCallTracer.ts,
 * eth/tracers/native/call_flat.go `flatFromNested`) and the Parity `trace_*` methods
 * (rpc/parityTrace.ts, as Erigon turbo/jsonrpc trace_*.go and Anvil, revm-inspectors'
 * parity builder, serve them). They differ only in {@link FlattenOptions}.
 *
 * Frames: CALL, STATICCALL, DELEGATECALL, CALLCODE are `call` (action `callType` the
 * kind in lower case), CREATE and CREATE2 `create` (`creationMethod`), SELFDESTRUCT
 * `suicide` (action `{ address, refundAddress, balance }`, no result). A failed frame
 * has `error` and no `result`, but a reverted one keeps `result` with its revert data
 * (geth's rule, and Anvil's answer).
 */
import type { CallFrameJson, ParityTrace } from '../../core/rpcObjects.ts'
import { fromHex, toQuantity } from '../../util/hex.ts'
import { intrinsicGas } from '../transactionGas.ts'

/** Where the traced transaction sits, as Parity's entries name it (null where unknown: a call not mined). */
export interface ParityPosition {
  blockHash: string | null
  blockNumber: number | null
  transactionHash: string | null
  transactionPosition: number | null
}

/** How a tree is flattened: the two readers' differences. */
export interface FlattenOptions {
  /** Where the transaction sits ({@link ParityPosition}). */
  readonly at: ParityPosition
  /**
   * Whose entries: `'parity'` as OpenEthereum answers trace_* (Erigon, Anvil: the top
   * frame's `action.gas` and `result.gasUsed` without the intrinsic gas, OpenEthereum
   * trace/executive_tracer; a create's `creationMethod`; a suicide's `result: null`),
   * `'geth'` as go-ethereum's flatCallTracer (the top frame's gas as the callTracer's
   * root has them, the transaction's gas limit and gas used; no `creationMethod`; a
   * suicide without `result`).
   */
  readonly style: 'parity' | 'geth'
  /** Errors as OpenEthereum names them ({@link parityErrorText}); else go-ethereum's texts as the callTracer has them. */
  readonly parityErrors: boolean
  /** Keep CALL / STATICCALL frames to precompiles below the top (geth flatCallTracer `includePrecompiles`); trace_* keeps them. */
  readonly precompiles: boolean
}

/** go-ethereum's error texts that OpenEthereum names otherwise (call_flat.go `parityErrorMapping`; Erigon and Anvil answer the same). */
const PARITY_ERRORS: Readonly<Record<string, string>> = {
  'contract creation code storage out of gas': 'Out of gas',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
}

/** A go-ethereum EVM error text as OpenEthereum's trace error (`call_flat.go convertErrorToParity`); texts without a Parity name pass through. */
export function parityErrorText(error: string): string {
  const mapped = PARITY_ERRORS[error]
  if (mapped !== undefined) return mapped
  if (error.startsWith('invalid opcode')) return 'Bad instruction'
  if (error.startsWith('stack underflow')) return 'Stack underflow'
  return error
}

/** Istanbul's precompiles, 0x01..0x09 (go-ethereum `PrecompiledAddressesIstanbul`), as a lower-case 0x address. */
export function isPrecompileAddress(address: string | undefined): boolean {
  if (address === undefined || !/^0x0{38}[0-9a-f]{2}$/i.test(address)) return false
  const last = Number.parseInt(address.slice(-2), 16)
  return last >= 1 && last <= 9
}

const isCreate = (type: string): boolean => type === 'CREATE' || type === 'CREATE2'

/** The frame's children as the flattening keeps them: without calls to precompiles unless asked (geth removes a CALL or STATICCALL to one when it exits). */
function childrenOf(frame: CallFrameJson, options: FlattenOptions): CallFrameJson[] {
  const calls = frame.calls ?? []
  if (options.precompiles) return calls
  return calls.filter((call) => !((call.type === 'CALL' || call.type === 'STATICCALL') && isPrecompileAddress(call.to)))
}

/**
 * The flat traces of the callTracer tree `root` (its root the transaction's frame),
 * by `options`. Quantities 0x-hex, addresses as the tree has them (lower case).
 */
export function flattenCallFrames(root: CallFrameJson, options: FlattenOptions): ParityTrace[] {
  const out: ParityTrace[] = []
  const walk = (frame: CallFrameJson, traceAddress: number[], top: boolean): void => {
    const calls = childrenOf(frame, options)
    const error = frame.error === undefined ? undefined : options.parityErrors ? parityErrorText(frame.error) : frame.error
    const parity = options.style === 'parity'
    const entry = (action: ParityTrace['action'], type: ParityTrace['type'], result: ParityTrace['result'] | undefined): ParityTrace => ({
      action,
      blockHash: options.at.blockHash,
      blockNumber: options.at.blockNumber,
      ...(error !== undefined && { error }),
      // A failed frame keeps no result, but a reverted one its revert data (geth flatFromNested; Anvil answers the same).
      ...(result !== undefined && (frame.error === undefined || frame.error === 'execution reverted') && { result }),
      subtraces: calls.length,
      traceAddress,
      transactionHash: options.at.transactionHash,
      transactionPosition: options.at.transactionPosition,
      type,
    })
    if (frame.type === 'SELFDESTRUCT') {
      out.push(entry({ address: frame.from, refundAddress: frame.to ?? '0x', balance: frame.value ?? '0x0' }, 'suicide', parity ? null : undefined))
      return
    }
    const create = isCreate(frame.type)
    const less = top && parity ? intrinsicGas(create ? undefined : new Uint8Array(20), fromHex(frame.input)) : 0n
    const gas = BigInt(frame.gas) - less
    const gasUsed = BigInt(frame.gasUsed) - less
    const used = toQuantity(gasUsed > 0n ? gasUsed : 0n)
    const value = frame.value ?? '0x0'
    if (create) {
      const action = {
        from: frame.from,
        gas: toQuantity(gas > 0n ? gas : 0n),
        init: frame.input,
        value,
        ...(parity && { creationMethod: frame.type === 'CREATE2' ? ('create2' as const) : ('create' as const) }),
      }
      out.push(entry(action, 'create', { address: frame.to ?? '0x', code: frame.output ?? '0x', gasUsed: used }))
    } else {
      const action = { from: frame.from, callType: frame.type.toLowerCase(), gas: toQuantity(gas > 0n ? gas : 0n), input: frame.input, to: frame.to ?? '0x', value }
      out.push(entry(action, 'call', { gasUsed: used, output: frame.output ?? '0x' }))
    }
    for (const [i, call] of calls.entries()) walk(call, [...traceAddress, i], false)
  }
  walk(root, [], true)
  return out
}
