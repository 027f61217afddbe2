/**
 * The tracer registry's types (evm/tracing/registry.ts): its table serves exactly the
 * tracers of core/rpcObjects.ts `RpcTracers` (the schema's), each with its result
 * type, and the trace options and results take their names and types from there.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type { CallFrameJson, ParityTrace, RpcTraceOptions, RpcTraceResult, RpcTracerName, StructLoggerResult, Trace } from '../src/index.ts'
import type { tracers } from '../src/evm/tracing/registry.ts'
import type { TracerDefinition } from '../src/evm/tracing/definition.ts'
import type { Tracer } from '../src/evm/tracing/tracer.ts'

describe('tracer types', () => {
  it('the registry holds one declaration per name of RpcTracers, of that name and result', () => {
    expectTypeOf<keyof typeof tracers>().toEqualTypeOf<RpcTracerName>()
    expectTypeOf<(typeof tracers)['callTracer']['name']>().toEqualTypeOf<'callTracer'>()
    expectTypeOf<ReturnType<(typeof tracers)['callTracer']['create']>>().toEqualTypeOf<Tracer<CallFrameJson>>()
  })

  it('results are the named tracer’s, the struct logger’s without a name, and Trace their union', () => {
    expectTypeOf<RpcTraceResult<'callTracer'>>().toEqualTypeOf<CallFrameJson>()
    expectTypeOf<RpcTraceResult<undefined>>().toEqualTypeOf<StructLoggerResult>()
    expectTypeOf<RpcTraceResult<'4byteTracer'>>().toEqualTypeOf<Record<string, number>>()
    expectTypeOf<RpcTraceResult<'flatCallTracer'>>().toEqualTypeOf<ParityTrace[]>()
    expectTypeOf<RpcTraceResult<'muxTracer'>['callTracer']>().toEqualTypeOf<CallFrameJson | undefined>()
    expectTypeOf<Trace>().toEqualTypeOf<RpcTraceResult<RpcTracerName> | StructLoggerResult>()
  })

  it('the options name only registered tracers, with their config', () => {
    expectTypeOf<RpcTraceOptions['tracer']>().toEqualTypeOf<RpcTracerName | undefined>()
    expectTypeOf<RpcTracerName>().toEqualTypeOf<'callTracer' | 'flatCallTracer' | '4byteTracer' | 'noopTracer' | 'muxTracer' | 'prestateTracer'>()
    expectTypeOf<{ tracer: 'callTracer'; tracerConfig: { onlyTopCall: true } }>().toMatchTypeOf<RpcTraceOptions>()
    // @ts-expect-error a tracerConfig field the callTracer does not take
    const bad: RpcTraceOptions = { tracer: 'callTracer', tracerConfig: { onlyTopCal: true } }
    void bad
  })

  it('a declaration whose result disagrees with its config and create types does not type-check', () => {
    // @ts-expect-error create's tracer yields a string, the declaration says a CallFrameJson
    const wrong: TracerDefinition<'callTracer', undefined, CallFrameJson> = { name: 'callTracer', config: () => undefined, create: () => ({}) as Tracer<string> }
    void wrong
  })
})
