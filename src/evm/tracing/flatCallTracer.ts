/**
 * go-ethereum's flatCallTracer (eth/tracers/native/call_flat.go): the callTracer's
 * frames (callTracer.ts, without onlyTopCall or withLog, as geth runs its inner
 * tracer) as Parity's flat traces, `[{ action, blockHash, blockNumber, error?,
 * result?, subtraces, traceAddress, transactionHash, transactionPosition, type }]`
 * (parityFrames.ts). As geth answers, not as trace_* does: the top frame's `gas` and
 * `gasUsed` are the transaction's gas limit and gas used (the intrinsic gas counted),
 * a create's action has no `creationMethod`, errors keep go-ethereum's texts, and
 * `blockNumber` / `transactionPosition` are numbers (for debug_traceCall the block the
 * call runs in and 0, the hashes null). Logs, the chain's gas-token fee logs among
 * them, are not part of a flat trace.
 *
 * `tracerConfig`: `convertParityErrors` names errors as OpenEthereum does
 * (`Reverted`, `Out of gas`, …); `includePrecompiles` keeps the CALL and STATICCALL
 * frames to precompiles (0x01..0x09 on Istanbul), which are left out by default.
 */
import type { ExecutionOutcome } from '../execution.ts'
import type { CallFrameJson, ParityTrace } from '../../core/rpcObjects.ts'
import { CallTracer } from './callTracer.ts'
import { configObject, defineTracer, flag } from './definition.ts'
import { flattenCallFrames } from './parityFrames.ts'
import type { EvmEvents, Tracer, TracePosition, TraceState } from './tracer.ts'

/** `tracerConfig` of the flatCallTracer (go-ethereum `flatCallTracerConfig`), and the devnet's size limit. */
export interface FlatCallTracerConfig {
  convertParityErrors?: boolean
  includePrecompiles?: boolean
  /** Largest trace kept, in bytes of its JSON (the inner callTracer's, {@link CallTracer}). */
  sizeLimit?: number | undefined
}

/** The flatCallTracer; one instance per trace. */
export class FlatCallTracer implements Tracer<ParityTrace[]> {
  readonly #config: FlatCallTracerConfig
  readonly #inner: CallTracer
  /** Where the trace sits; until bound (a replay always binds), no hashes and zeros. */
  #position: TracePosition = { blockHash: null, blockNumber: 0, transactionHash: null, transactionPosition: 0 }

  constructor(config: FlatCallTracerConfig = {}) {
    this.#config = config
    // Every frame is kept (a flat trace has no onlyTopCall): past the limit, the callTracer's onlyTopCall is the way out.
    const tooLargeHint = 'trace with the callTracer and its onlyTopCall, or raise traceSizeLimit'
    this.#inner = new CallTracer(config.sizeLimit === undefined ? { tooLargeHint } : { sizeLimit: config.sizeLimit, tooLargeHint })
  }

  bind(state: TraceState): void {
    this.#position = state.position
  }

  attach(events: EvmEvents): () => void {
    return this.#inner.attach(events)
  }

  result(outcome: ExecutionOutcome, gasLimit: bigint): ParityTrace[] {
    const root: CallFrameJson = this.#inner.result(outcome, gasLimit)
    return flattenCallFrames(root, {
      at: this.#position,
      style: 'geth',
      parityErrors: this.#config.convertParityErrors === true,
      precompiles: this.#config.includePrecompiles === true,
    })
  }
}

/**
 * The flatCallTracer's declaration (registry.ts): `tracer: 'flatCallTracer'`, its
 * `tracerConfig` `{ convertParityErrors?, includePrecompiles? }` (booleans; absent or
 * null: false; go-ethereum's `native.flatCallTracerConfig`, whose decoding texts a bad
 * one gets), its result the flat traces ({@link ParityTrace}).
 */
export const flatCallTracer = defineTracer({
  name: 'flatCallTracer',
  config: (value, ctx) => {
    const config = configObject(value, 'native.flatCallTracerConfig', ctx)
    return {
      convertParityErrors: flag(config, 'convertParityErrors', 'flatCallTracerConfig', ctx),
      includePrecompiles: flag(config, 'includePrecompiles', 'flatCallTracerConfig', ctx),
    }
  },
  create: (config, env) => new FlatCallTracer({ ...config, sizeLimit: env.sizeLimit }),
})
