/**
 * go-ethereum's muxTracer (eth/tracers/native/mux.go): runs several tracers over one
 * execution, its `tracerConfig` an object `{ <tracer name>: <that tracer's config> }`,
 * its result `{ <tracer name>: <that tracer's result> }`. Each named tracer's config
 * is parsed by that tracer's own declaration (through the config context, not the
 * registry, which imports this module); an unknown name is refused as the trace
 * options' own unknown tracer is.
 */
import type { ExecutionOutcome } from '../execution.ts'
import { configObject, defineTracer, type AnyTracerDefinition } from './definition.ts'
import type { EvmEvents, Tracer, TraceState } from './tracer.ts'

/** The muxTracer's parsed config: each tracer with its parsed config, in the config's order. */
export interface MuxConfig {
  readonly entries: readonly { name: string; definition: AnyTracerDefinition; config: unknown }[]
}

/** The muxTracer; one instance per trace, holding one instance of each tracer it runs. */
export class MuxTracer implements Tracer<Record<string, unknown>> {
  readonly #tracers: readonly { name: string; tracer: Tracer }[]

  constructor(tracers: readonly { name: string; tracer: Tracer }[]) {
    this.#tracers = tracers
  }

  /** Hands the replay's world to each tracer that reads it (prestateTracer, flatCallTracer's position). */
  bind(state: TraceState): void {
    for (const { tracer } of this.#tracers) tracer.bind?.(state)
  }

  attach(events: EvmEvents): () => void {
    const detach = this.#tracers.map(({ tracer }) => tracer.attach(events))
    return () => {
      for (const stop of detach) stop()
    }
  }

  result(outcome: ExecutionOutcome, gasLimit: bigint): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const { name, tracer } of this.#tracers) out[name] = tracer.result(outcome, gasLimit)
    return out
  }
}

/** The muxTracer's declaration (registry.ts): `tracer: 'muxTracer'`, `tracerConfig` `{ name: config }`, result `{ name: result }`. */
export const muxTracer = defineTracer({
  name: 'muxTracer',
  config: (value, ctx): MuxConfig => {
    const config = configObject(value, 'map[string]json.RawMessage', ctx)
    const entries = Object.entries(config).map(([name, sub]) => {
      const definition = ctx.tracer(name)
      return { name, definition, config: definition.config(sub, ctx) }
    })
    return { entries }
  },
  create: (config, env) => new MuxTracer(config.entries.map(({ name, definition, config: sub }) => ({ name, tracer: definition.create(sub, env) }))),
})
