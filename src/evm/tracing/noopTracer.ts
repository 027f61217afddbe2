/**
 * go-ethereum's noopTracer (eth/tracers/native/noop.go): listens to nothing and
 * answers `{}`; its `tracerConfig` is not read (geth ignores it too).
 */
import { defineTracer } from './definition.ts'
import type { Tracer } from './tracer.ts'

/** The noopTracer's declaration (registry.ts): `tracer: 'noopTracer'`, any config, result `{}`. */
export const noopTracer = defineTracer({
  name: 'noopTracer',
  config: () => undefined,
  create: (): Tracer<Record<string, never>> => ({ attach: () => () => {}, result: () => ({}) }),
})
