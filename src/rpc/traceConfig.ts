/**
 * The trace options of debug_traceTransaction and debug_traceCall (go-ethereum's
 * `TraceConfig`, eth/tracers/api.go): `tracer`, a name the tracer registry
 * (evm/tracing/registry.ts) holds, with its `tracerConfig`; without one, the struct
 * logger, whose flags `disableStack`, `disableStorage`, `enableMemory`,
 * `enableReturnData` are the options' own; and `timeout` (a Go duration, e.g. "10s",
 * "500ms"; default the devnet's traceTimeout). `reexec` and `limit` are accepted and
 * have no effect (replays are in-process and complete); other fields are ignored, as
 * geth's JSON decoding ignores them.
 */
import { defaultTracer, findTracer } from '../evm/tracing/registry.ts'
import type { AnyTracerDefinition, TracerConfigContext } from '../evm/tracing/definition.ts'
import type { Tracer } from '../evm/tracing/tracer.ts'
import { ExecutionTimeoutError } from '../evm/pacer.ts'
import type { ReplayBudget } from '../chain/replay.ts'
import type { RpcCallScope } from './context.ts'
import type { RpcLimits } from './limits.ts'
import { RpcError, RpcErrorCode, invalidArgument } from './errors.ts'

/**
 * The tracer for the options at argument `index`: the one the registry holds under
 * `tracer`, else the struct logger, with its config parsed; it keeps at most
 * `sizeLimit` bytes of trace (the devnet's traceSizeLimit). Throws {@link RpcError}
 * -32602 for a malformed object, flag or tracerConfig (go-ethereum's decoding texts),
 * -32000 `unkown tracer type: X` (the real node's text, reference §6.2) for a name the
 * registry does not hold.
 */
export function tracerFromOptions(value: unknown, index: number, sizeLimit?: number): Tracer {
  const ctx = configContext(index)
  if (value === undefined || value === null) return create(defaultTracer, undefined, ctx, sizeLimit)
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(index, 'json: cannot unmarshal non-object into Go value of type tracers.TraceConfig')
  const options = value as Record<string, unknown>
  const name = options.tracer
  if (name === undefined || name === null || name === '') return create(defaultTracer, options, ctx, sizeLimit)
  return create(ctx.tracer(name), options.tracerConfig, ctx, sizeLimit)
}

/** A fresh `definition` tracer with `config` (its config JSON) parsed. */
function create(definition: AnyTracerDefinition, config: unknown, ctx: TracerConfigContext, sizeLimit: number | undefined): Tracer {
  return definition.create(definition.config(config, ctx), { sizeLimit })
}

/** The JSON-RPC surface's answers to a tracer's config parser, for the options at argument `index`. */
function configContext(index: number): TracerConfigContext {
  return {
    invalid: (message) => {
      throw invalidArgument(index, message)
    },
    tracer: (name) => {
      const found = findTracer(name)
      // The real node's text, typo included (reference §6.2, debug_traceCall).
      if (found === undefined) throw new RpcError(RpcErrorCode.ServerError, `unkown tracer type: ${typeof name === 'string' ? name : JSON.stringify(name)}`)
      return found
    },
  }
}

/** Milliseconds per unit of a Go duration (time.ParseDuration). */
const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }
const DURATION = /^[-+]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/
const DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g

/**
 * The trace's time limit in ms: the `timeout` of the options at argument `index` (a
 * Go duration as geth's `time.ParseDuration` reads it: "5s", "1m30s", "250ms"), else
 * `fallback`. Throws {@link RpcError} -32602 with geth's text for anything else.
 */
export function traceTimeoutOf(value: unknown, index: number, fallback: number): number {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fallback
  const timeout = (value as Record<string, unknown>).timeout
  if (timeout === undefined || timeout === null) return fallback
  if (typeof timeout !== 'string') {
    throw invalidArgument(index, `json: cannot unmarshal ${typeof timeout} into Go struct field TraceConfig.timeout of type string`)
  }
  if (!DURATION.test(timeout)) throw invalidArgument(index, `time: invalid duration ${JSON.stringify(timeout)}`)
  let ms = 0
  for (const [, amount, unit] of timeout.matchAll(DURATION_PART)) ms += Number(amount) * DURATION_UNITS[unit!]!
  return timeout.startsWith('-') ? -ms : ms
}

/**
 * Runs `trace` with its time limit: `timeout` ms, or what is left of the batch's
 * budget (`scope`, option batchTraceTimeout) when that is less, and spends the time it
 * took from the batch's budget. Past the limit the trace stops and this throws
 * {@link ExecutionTimeoutError} `execution timeout` (go-ethereum's text) saying which
 * limit it was.
 */
export async function withTraceBudget<T>(limits: RpcLimits, scope: RpcCallScope | undefined, timeout: number, trace: (budget: ReplayBudget) => Promise<T>): Promise<T> {
  const started = performance.now()
  const left = scope?.traceBudget ?? Infinity
  const byBatch = left < timeout
  const budget: ReplayBudget = {
    deadline: started + (byBatch ? left : timeout),
    timeout: () =>
      new ExecutionTimeoutError(
        byBatch
          ? `execution timeout: the trace calls of this batch ran past ${limits.batchTraceTimeout} ms in all (option batchTraceTimeout)`
          : `execution timeout: the trace ran past ${formatMs(timeout)} (option traceTimeout, or the tracer option timeout)`,
      ),
  }
  try {
    return await trace(budget)
  } finally {
    if (scope !== undefined) scope.traceBudget -= performance.now() - started
  }
}

function formatMs(ms: number): string {
  return ms >= 1_000 && ms % 1_000 === 0 ? `${ms / 1_000} s` : `${ms} ms`
}
