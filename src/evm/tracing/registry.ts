/**
 * The tracers of debug_traceTransaction and debug_traceCall, by name (go-ethereum's
 * `tracers.DefaultDirectory`, eth/tracers/dir.go): rpc/traceConfig.ts looks the
 * options' `tracer` up here, and uses {@link defaultTracer} when it names none.
 *
 * Adding a tracer: a module of this folder exporting its declaration
 * (definition.ts `defineTracer`: name, config parser, result type), one line in
 * {@link tracers}, and its wire types in core/rpcObjects.ts `RpcTracers` (the
 * schema's), which this table must match name for name and result for result, or it
 * does not build. A tracer that runs others (go-ethereum's muxTracer) gets them
 * through its config context (`ctx.tracer(name)`), not by importing this table.
 *
 * Loaded with the trace methods, off the start-up path (rpc/traceConfig.ts is a
 * dynamic import of theirs).
 */
import type { RpcTracerName, RpcTracers, StructLoggerResult } from '../../core/rpcObjects.ts'
import { callTracer } from './callTracer.ts'
import { flatCallTracer } from './flatCallTracer.ts'
import { fourByteTracer } from './fourByteTracer.ts'
import { muxTracer } from './muxTracer.ts'
import { noopTracer } from './noopTracer.ts'
import { prestateTracer } from './prestateTracer.ts'
import type { AnyTracerDefinition, TracerOf } from './definition.ts'
import { structLogger } from './structLogger.ts'

/** Every tracer a debug_trace* call may name, under its wire name; each one's result is its {@link RpcTracers} result. */
export const tracers = {
  callTracer,
  flatCallTracer,
  '4byteTracer': fourByteTracer,
  noopTracer,
  muxTracer,
  prestateTracer,
} satisfies { readonly [N in RpcTracerName]: TracerOf<N, RpcTracers[N]['result']> }

/** The tracer used when the options name none: go-ethereum's struct logger (its flags are the options' own). */
export const defaultTracer: TracerOf<'structLogger', StructLoggerResult> = structLogger

/** The registered tracer named `name`, or `undefined` (an own property only: `toString` is no tracer). */
export function findTracer(name: unknown): AnyTracerDefinition | undefined {
  return typeof name === 'string' && Object.hasOwn(tracers, name) ? (tracers as Record<string, AnyTracerDefinition>)[name] : undefined
}
