/**
 * A tracer as a declaration, as go-ethereum registers its tracers
 * (eth/tracers/dir.go, `tracers.DefaultDirectory.Register(name, ctor, isJS)`): its
 * name, how its config is parsed and checked, and how an instance of it is made for
 * one trace, whose `result` is the tracer's result type. The registry
 * (registry.ts) lists the declarations by name; rpc/traceConfig.ts looks them up.
 *
 * A config parser throws through {@link TracerConfigContext.invalid} with
 * go-ethereum's text for a bad config (the JSON-RPC surface answers it as -32602
 * `invalid argument N: …`); the evm layer knows nothing of the surfaces' errors.
 */
import type { Tracer } from './tracer.ts'

/** What a tracer's config parser may call: the surface's refusal, and the other tracers (a tracer running several, as go-ethereum's muxTracer, parses their configs with theirs). */
export interface TracerConfigContext {
  /** Refuses the config with `message` (go-ethereum's text, e.g. `json: cannot unmarshal …`); never returns. */
  invalid(message: string): never
  /** The registered tracer named `name`; throws the surface's unknown-tracer error (`unkown tracer type: X`, reference §6.2) for any other. */
  tracer(name: unknown): AnyTracerDefinition
}

/** What a tracer instance gets beside its config. */
export interface TracerEnvironment {
  /**
   * Largest trace kept, in bytes of its JSON (the devnet's `traceSizeLimit` option;
   * `undefined`: none); beyond it a tracer stops recording and its `result` throws
   * TraceTooLargeError. A tracer running several gives each this limit.
   */
  readonly sizeLimit: number | undefined
}

/**
 * One tracer: `name` (what `tracer` names on the wire), `config` (parses the config
 * JSON to `C`), `create` (a fresh tracer for one trace, whose result is `R`).
 */
export interface TracerDefinition<N extends string = string, C = unknown, R = unknown> {
  readonly name: N
  /**
   * Parses the tracer's config: the `tracerConfig` of the trace options for a tracer
   * named by `tracer` (`undefined` when absent or null), the options object itself for
   * the default tracer (go-ethereum embeds the struct logger's `logger.Config` in
   * `TraceConfig`). Throws through `ctx.invalid` for a bad one.
   */
  config(value: unknown, ctx: TracerConfigContext): C
  /** A tracer for one trace, with the parsed `config`. */
  create(config: C, env: TracerEnvironment): Tracer<R>
}

/** A declaration of tracer `N` whose result is `R`, of any config (the registry's entry type). */
// `any`: the config type is each declaration's own; only that declaration's `create` reads what its `config` returned.
export type TracerOf<N extends string, R> = TracerDefinition<N, any, R>

/** A tracer declaration of any name, config and result, as the registry hands it out. */
export type AnyTracerDefinition = TracerOf<string, unknown>

/** Declares a tracer (see {@link TracerDefinition}); the identity, typed. */
export function defineTracer<const N extends string, C, R>(definition: TracerDefinition<N, C, R>): TracerDefinition<N, C, R> {
  return definition
}

/**
 * `value` as a JSON object, `{}` when absent or null; anything else is refused with
 * go-ethereum's text for decoding it into the Go type `goType` (e.g.
 * `native.callTracerConfig`).
 */
export function configObject(value: unknown, goType: string, ctx: TracerConfigContext): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) ctx.invalid(`json: cannot unmarshal non-object into Go value of type ${goType}`)
  return value as Record<string, unknown>
}

/**
 * The boolean field `name` of `config` (false when absent or null); anything else is
 * refused with go-ethereum's text for the Go struct field `struct.name`.
 */
export function flag(config: Record<string, unknown>, name: string, struct: string, ctx: TracerConfigContext): boolean {
  const value = config[name]
  if (value === undefined || value === null) return false
  if (typeof value !== 'boolean') ctx.invalid(`json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field ${struct}.${name} of type bool`)
  return value
}
