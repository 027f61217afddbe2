/**
 * The trace options of debug_traceTransaction and debug_traceCall (go-ethereum's
 * `TraceConfig`, eth/tracers/api.go): the struct logger's flags `disableStack`,
 * `disableStorage`, `enableMemory`, `enableReturnData`, or `tracer: 'callTracer'`
 * with `tracerConfig: { onlyTopCall, withLog }`. `timeout`, `reexec` and `limit` are
 * accepted and have no effect (replays are in-process and complete); other fields are
 * ignored, as geth's JSON decoding ignores them.
 */
import { CallTracer } from '../evm/tracing/callTracer.ts'
import { StructLogger } from '../evm/tracing/structLogger.ts'
import type { Tracer } from '../evm/tracing/tracer.ts'
import { RpcError, RpcErrorCode, invalidArgument } from './errors.ts'

const LOGGER_FLAGS = ['disableStack', 'disableStorage', 'enableMemory', 'enableReturnData'] as const

function flag(options: Record<string, unknown>, name: string, index: number): boolean {
  const value = options[name]
  if (value === undefined || value === null) return false
  if (typeof value !== 'boolean') throw invalidArgument(index, `json: cannot unmarshal ${typeof value} into Go struct field TraceConfig.${name} of type bool`)
  return value
}

/**
 * The tracer for the options at argument `index`: the struct logger by default,
 * keeping at most `sizeLimit` bytes of struct logs (the devnet's traceSizeLimit). Throws {@link RpcError} -32602 for a malformed object or flag, -32000 `unkown tracer
 * type: X` (the real node's text, reference §6.2) for a tracer other than callTracer.
 */
export function tracerFromOptions(value: unknown, index: number, sizeLimit?: number): Tracer {
  if (value === undefined || value === null) return new StructLogger({ sizeLimit })
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(index, 'json: cannot unmarshal non-object into Go value of type tracers.TraceConfig')
  const options = value as Record<string, unknown>
  const tracer = options.tracer
  if (tracer === undefined || tracer === null || tracer === '') {
    const [disableStack, disableStorage, enableMemory, enableReturnData] = LOGGER_FLAGS.map((name) => flag(options, name, index))
    return new StructLogger({ disableStack, disableStorage, enableMemory, enableReturnData, sizeLimit })
  }
  if (tracer !== 'callTracer') {
    // The real node's text, typo included (reference §6.2, debug_traceCall).
    throw new RpcError(RpcErrorCode.ServerError, `unkown tracer type: ${typeof tracer === 'string' ? tracer : JSON.stringify(tracer)}`)
  }
  const config = options.tracerConfig ?? {}
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw invalidArgument(index, 'json: cannot unmarshal non-object into Go value of type native.callTracerConfig')
  }
  const c = config as Record<string, unknown>
  return new CallTracer({ onlyTopCall: flag(c, 'onlyTopCall', index), withLog: flag(c, 'withLog', index) })
}
