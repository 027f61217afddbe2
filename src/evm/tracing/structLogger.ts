/**
 * go-ethereum's default tracer, the struct logger (eth/tracers/logger/logger.go):
 * one entry per executed opcode, `{ pc, op, gas, gasCost, depth, error?, stack?,
 * returnData?, memory?, storage?, refund? }`, and the result `{ gas, failed,
 * returnValue, structLogs }`, in geth's JSON encoding: stack items as 0x-quantities
 * (bottom first), memory as 32-byte words of hex without 0x, storage as the slots of
 * the running contract read (SLOAD) or written (SSTORE) so far, shown on SLOAD and
 * SSTORE steps only, keys and values as 64 hex digits without 0x; `depth` 1 for the
 * transaction's own frame; `gasCost` of a CALL-family opcode includes the gas handed
 * to the callee (without the value stipend), as geth counts it.
 */
import type { ExecutionOutcome } from '../execution.ts'
import { TraceTooLargeError, gethErrorText, listen, type EvmEvents, type MessageEvent, type MessageResultEvent, type StepEvent, type Tracer } from './tracer.ts'
import { configObject, defineTracer, flag } from './definition.ts'
import { toHex, toQuantity } from '../../util/hex.ts'
import type { StructLogJson, StructLoggerResult } from '../../core/rpcObjects.ts'

export type { StructLogJson, StructLoggerResult } from '../../core/rpcObjects.ts'

/** The struct logger's options (geth `logger.Config`, JSON names of debug_trace*). */
export interface StructLoggerConfig {
  disableStack?: boolean
  disableStorage?: boolean
  enableMemory?: boolean
  enableReturnData?: boolean
  /**
   * Largest trace kept, in bytes of its JSON (estimated as the logs are recorded);
   * beyond it recording stops and `result` throws {@link TraceTooLargeError}. Default:
   * none. The devnet sets its `traceSizeLimit` option here.
   */
  sizeLimit?: number
}

const SLOAD = 0x54
const SSTORE = 0x55
const CALL = 0xf1
const CALLCODE = 0xf2
const DELEGATECALL = 0xf4
const STATICCALL = 0xfa
const CALL_STIPEND = 2300n
/** Errors geth reports on the struct log itself: those raised before the opcode is logged (gas and stack checks). */
const PRE_STEP_ERRORS = new Set(['out of gas', 'stack underflow', 'stack overflow'])

function word(value: bigint | Uint8Array): string {
  if (typeof value === 'bigint') return value.toString(16).padStart(64, '0')
  return Buffer.from(value).toString('hex').padStart(64, '0')
}

function key32(value: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(word(value), 'hex'))
}

/** The struct logger; one instance per trace. */
export class StructLogger implements Tracer<StructLoggerResult> {
  readonly #config: StructLoggerConfig
  readonly #logs: StructLogJson[] = []
  /** Per storage context (address hex): the slots seen so far. */
  readonly #storage = new Map<string, Record<string, string>>()
  /** Per open frame: index of its latest log and the return data of its latest call. */
  readonly #frames: { last: number; returnData: Uint8Array }[] = []
  /** The log of the CALL-family opcode that opened the next frame, to add the gas it hands over. */
  #pendingCall: { log: StructLogJson; op: number; value: bigint } | undefined
  /** Estimated JSON size of the logs so far, in bytes; recording stops above the size limit. */
  #size = 0
  #overflow = false

  constructor(config: StructLoggerConfig = {}) {
    this.#config = config
  }

  attach(events: EvmEvents): () => void {
    const onStep = (step: StepEvent, resolve?: () => void): void => {
      // Past the size limit the replay stops: thrown here, the error ends the execution (replay.ts passes it on).
      if (this.#overflow) throw this.#tooLarge()
      this.#step(step).then(
        () => resolve?.(),
        () => resolve?.(),
      )
    }
    const onBefore = (message: MessageEvent): void => {
      const pending = this.#pendingCall
      this.#pendingCall = undefined
      if (pending !== undefined && message.depth > 0) {
        const stipend = (pending.op === CALL || pending.op === CALLCODE) && pending.value > 0n ? CALL_STIPEND : 0n
        pending.log.gasCost += Number(message.gasLimit - stipend)
      }
      this.#frames.push({ last: -1, returnData: new Uint8Array(0) })
    }
    const onAfter = (result: MessageResultEvent): void => {
      const frame = this.#frames.pop()
      const error = result.execResult.exceptionError?.error
      // Past the size limit the logs are gone, and no frame's `last` points into them.
      if (!this.#overflow && frame !== undefined && error !== undefined && PRE_STEP_ERRORS.has(error) && frame.last >= 0) {
        this.#logs[frame.last]!.error = gethErrorText(error)
      }
      const parent = this.#frames[this.#frames.length - 1]
      if (parent !== undefined) {
        // geth: a successful CREATE leaves no return data; a call leaves the callee's output.
        parent.returnData = result.createdAddress !== undefined && error === undefined ? new Uint8Array(0) : result.execResult.returnValue.slice()
      }
    }
    return listen(events, { step: onStep, beforeMessage: onBefore, afterMessage: onAfter })
  }

  async #step(step: StepEvent): Promise<void> {
    if (this.#overflow) return
    const op = step.opcode.code
    // A call that never started a frame (depth limit, funds) must not take the next frame's gas.
    this.#pendingCall = undefined
    const log: StructLogJson = {
      pc: step.pc,
      op: step.opcode.name,
      gas: Number(step.gasLeft),
      gasCost: Number(step.opcode.dynamicFee),
      depth: step.depth + 1,
    }
    const stack = step.stack
    if (!this.#config.disableStack) log.stack = stack.map((word) => toQuantity(word))
    const frame = this.#frames[this.#frames.length - 1]
    if (this.#config.enableReturnData && frame !== undefined && frame.returnData.length > 0) log.returnData = toHex(frame.returnData)
    if (this.#config.enableMemory && step.memory.length > 0) {
      const memory: string[] = []
      for (let i = 0; i + 32 <= step.memory.length; i += 32) memory.push(Buffer.from(step.memory.subarray(i, i + 32)).toString('hex'))
      log.memory = memory
    }
    if (!this.#config.disableStorage && (op === SLOAD || op === SSTORE)) {
      const address = Buffer.from(step.address.bytes).toString('hex')
      let slots = this.#storage.get(address)
      if (slots === undefined) this.#storage.set(address, (slots = {}))
      const n = stack.length
      if (op === SLOAD && n >= 1) {
        slots[word(stack[n - 1]!)] = word(await step.stateManager.getStorage(step.address, key32(stack[n - 1]!)))
        log.storage = { ...slots }
      } else if (op === SSTORE && n >= 2) {
        slots[word(stack[n - 1]!)] = word(stack[n - 2]!)
        log.storage = { ...slots }
      }
    }
    if (step.gasRefund > 0n) log.refund = Number(step.gasRefund)
    if (op === CALL || op === CALLCODE || op === DELEGATECALL || op === STATICCALL) {
      const value = op === CALL || op === CALLCODE ? (stack[stack.length - 3] ?? 0n) : 0n
      this.#pendingCall = { log, op, value }
    }
    if (this.#config.sizeLimit !== undefined) {
      this.#size += estimatedSize(log)
      if (this.#size > this.#config.sizeLimit) {
        this.#overflow = true
        this.#logs.length = 0
        this.#storage.clear()
        for (const open of this.#frames) open.last = -1
        return
      }
    }
    if (frame !== undefined) frame.last = this.#logs.length
    this.#logs.push(log)
  }

  #tooLarge(): TraceTooLargeError {
    return new TraceTooLargeError(`trace larger than ${this.#config.sizeLimit} bytes (option traceSizeLimit): trace with disableStack, without enableMemory, or with the callTracer`)
  }

  result(outcome: ExecutionOutcome): StructLoggerResult {
    if (this.#overflow) throw this.#tooLarge()
    const failed = outcome.status === 0
    const reverted = outcome.error?.kind === 'revert'
    return {
      gas: Number(outcome.gasUsed),
      failed,
      returnValue: failed && !reverted ? '' : Buffer.from(outcome.returnValue).toString('hex'),
      structLogs: this.#logs,
    }
  }
}

/** The struct logger's flags, in go-ethereum's order (`logger.Config`). */
const FLAGS = ['disableStack', 'disableStorage', 'enableMemory', 'enableReturnData'] as const

/**
 * The struct logger's declaration (registry.ts): the default tracer, used when the
 * trace options name none. Its config is the options object itself (go-ethereum
 * embeds `logger.Config` in `TraceConfig`): the flags `disableStack`,
 * `disableStorage`, `enableMemory`, `enableReturnData` (booleans, absent or null:
 * false); its result {@link StructLoggerResult}.
 */
export const structLogger = defineTracer({
  name: 'structLogger',
  config: (value, ctx) => {
    const options = configObject(value, 'tracers.TraceConfig', ctx)
    const [disableStack, disableStorage, enableMemory, enableReturnData] = FLAGS.map((name) => flag(options, name, 'TraceConfig', ctx))
    return { disableStack, disableStorage, enableMemory, enableReturnData }
  },
  create: (config, env) => new StructLogger({ ...config, sizeLimit: env.sizeLimit }),
})

/** About the bytes `log` takes in JSON (what {@link StructLoggerConfig.sizeLimit} counts): fixed fields, then every stack item, memory word and storage entry. */
export function estimatedSize(log: StructLogJson): number {
  let size = 100 + log.op.length
  if (log.stack !== undefined) for (const item of log.stack) size += item.length + 3
  if (log.memory !== undefined) size += log.memory.length * 67
  if (log.storage !== undefined) size += Object.keys(log.storage).length * 134
  if (log.returnData !== undefined) size += log.returnData.length
  return size
}
