/**
 * go-ethereum's callTracer (eth/tracers/native/call.go): the tree of call frames
 * `{ type, from, gas, gasUsed, to?, input, output?, error?, revertReason?, calls?,
 * logs?, value? }` with quantities as 0x-hex and addresses in lower case. Options
 * (`tracerConfig`): `onlyTopCall` keeps the transaction's own frame only; `withLog`
 * adds the LOG0..LOG4 records of each frame as `{ address, topics, data, position }`
 * (`position`: the number of sub-calls the frame had made before the log), logs of
 * failed frames and their children removed, as geth does.
 */
import type { ExecutionOutcome } from '../execution.ts'
import { decodeRevert } from '../revertReason.ts'
import { TraceTooLargeError, gethErrorText, listen, type EvmEvents, type MessageEvent, type MessageResultEvent, type StepEvent, type Tracer } from './tracer.ts'
import { configObject, defineTracer, flag } from './definition.ts'
import { toHex, toQuantity } from '../../util/hex.ts'
import type { CallFrameJson, CallLogJson } from '../../core/rpcObjects.ts'

export type { CallFrameJson, CallLogJson } from '../../core/rpcObjects.ts'

/** `tracerConfig` of the callTracer, and the devnet's size limit. */
export interface CallTracerConfig {
  onlyTopCall?: boolean
  withLog?: boolean
  /**
   * Largest trace kept, in bytes of its JSON (estimated as frames and logs are
   * recorded: inputs and outputs of calls are not bounded by gas); beyond it recording
   * stops and `result` throws {@link TraceTooLargeError}. Default: none. The devnet
   * sets its `traceSizeLimit` option here.
   */
  sizeLimit?: number
}

interface Frame {
  type: string
  from: Uint8Array
  to: Uint8Array | undefined
  input: Uint8Array
  gas: bigint
  value: bigint | undefined
  gasUsed: bigint
  output: Uint8Array | undefined
  error: string | undefined
  revertReason: string | undefined
  calls: Frame[]
  logs: CallLogJson[]
  /** The opcode of this frame's latest step: names the kind of the frame it opens. */
  lastOp: string
}

const EMPTY = new Uint8Array(0)
const LOG0 = 0xa0
const LOG4 = 0xa4

/** The callTracer; one instance per trace. */
export class CallTracer implements Tracer<CallFrameJson> {
  readonly #config: CallTracerConfig
  readonly #stack: Frame[] = []
  #root: Frame | undefined
  /** Estimated JSON size of the frames and logs kept so far, in bytes. */
  #size = 0
  /** Past the size limit: nothing more is recorded, and what was is dropped. */
  #overflow = false

  constructor(config: CallTracerConfig = {}) {
    this.#config = config
  }

  attach(events: EvmEvents): () => void {
    // Past the size limit the replay stops: thrown from a listener, the error ends the execution (replay.ts passes it on).
    return listen(events, {
      step: (step) => {
        if (this.#overflow) throw this.#tooLarge()
        this.#step(step)
      },
      beforeMessage: (message) => {
        if (this.#overflow) throw this.#tooLarge()
        this.#enter(message)
      },
      afterMessage: (result) => {
        if (this.#overflow) throw this.#tooLarge()
        this.#exit(result)
      },
    })
  }

  #tooLarge(): TraceTooLargeError {
    return new TraceTooLargeError(`trace larger than ${this.#config.sizeLimit} bytes (option traceSizeLimit): trace with the callTracer's onlyTopCall, or without withLog`)
  }

  /** Counts `bytes` more of JSON against the size limit; false (and recording stops) past it. */
  #grow(bytes: number): boolean {
    const limit = this.#config.sizeLimit
    if (limit === undefined) return true
    this.#size += bytes
    if (this.#size <= limit) return true
    this.#overflow = true
    this.#stack.length = 0
    this.#root = undefined
    return false
  }

  #step(step: StepEvent): void {
    const frame = this.#stack[this.#stack.length - 1]
    if (frame === undefined) return
    frame.lastOp = step.opcode.name
    const op = step.opcode.code
    if (!this.#config.withLog || op < LOG0 || op > LOG4) return
    if (this.#config.onlyTopCall && this.#stack.length > 1) return
    const stack = step.stack
    const n = stack.length
    const offset = Number(stack[n - 1] ?? 0n)
    const size = Number(stack[n - 2] ?? 0n)
    const topics: string[] = []
    for (let i = 0; i < op - LOG0; i++) topics.push(`0x${(stack[n - 3 - i] ?? 0n).toString(16).padStart(64, '0')}`)
    // The memory before the opcode: bytes past its end read as the zeros expansion adds.
    if (!this.#grow(120 + topics.length * 69 + 2 * size)) return
    const data = new Uint8Array(size)
    if (offset < step.memory.length) data.set(step.memory.subarray(offset, Math.min(offset + size, step.memory.length)))
    frame.logs.push({ address: toHex(step.address.bytes), topics, data: toHex(data), position: toQuantity(BigInt(frame.calls.length)) })
  }

  #enter(message: MessageEvent): void {
    const parent = this.#stack[this.#stack.length - 1]
    let type: string
    if (message.to === undefined) type = message.salt !== undefined ? 'CREATE2' : 'CREATE'
    else if (message.delegatecall) type = 'DELEGATECALL'
    else if (parent !== undefined && (parent.lastOp === 'STATICCALL' || parent.lastOp === 'CALLCODE')) type = parent.lastOp
    else type = 'CALL'
    // A frame onlyTopCall leaves out is not kept: only its kind and gas are read.
    const kept = parent === undefined || !this.#config.onlyTopCall
    if (kept && !this.#grow(250 + 2 * message.data.length)) return
    const frame: Frame = {
      type,
      from: message.caller.bytes,
      to: message.to?.bytes,
      // Copies: the EVM hands out views of the caller's memory, which later opcodes overwrite.
      input: kept ? message.data.slice() : EMPTY,
      gas: message.gasLimit,
      value: type === 'STATICCALL' ? undefined : message.value,
      gasUsed: 0n,
      output: undefined,
      error: undefined,
      revertReason: undefined,
      calls: [],
      logs: [],
      lastOp: '',
    }
    if (parent === undefined) this.#root = frame
    else if (!this.#config.onlyTopCall) parent.calls.push(frame)
    this.#stack.push(frame)
  }

  #exit(result: MessageResultEvent): void {
    const frame = this.#stack.pop()
    if (frame === undefined) return
    const exec = result.execResult
    frame.gasUsed = exec.executionGasUsed
    if (frame.to === undefined) frame.to = result.createdAddress?.bytes
    const error = exec.exceptionError?.error
    const kept = frame === this.#root || !this.#config.onlyTopCall
    if (kept && exec.returnValue.length > 0 && !this.#grow(2 * exec.returnValue.length)) return
    if (error === undefined) {
      frame.output = exec.returnValue.slice()
      return
    }
    frame.error = gethErrorText(error, error === 'invalid opcode' ? frame.lastOp : undefined)
    if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined
    if (error !== 'revert' || exec.returnValue.length === 0) return
    frame.output = exec.returnValue.slice()
    frame.revertReason = decodeRevert(exec.returnValue)
  }

  result(outcome: ExecutionOutcome, gasLimit: bigint): CallFrameJson {
    if (this.#overflow) throw this.#tooLarge()
    const root = this.#root
    if (root === undefined) throw new Error('callTracer: the execution started no call frame')
    root.gas = gasLimit
    root.gasUsed = outcome.gasUsed
    if (this.#config.withLog) clearFailedLogs(root, false)
    return render(root)
  }
}

/** geth `clearFailedLogs`: a failed frame's logs, and those of every frame below it, were never emitted. */
function clearFailedLogs(frame: Frame, parentFailed: boolean): void {
  const failed = parentFailed || frame.error !== undefined
  if (failed) frame.logs = []
  for (const call of frame.calls) clearFailedLogs(call, failed)
}

function render(frame: Frame): CallFrameJson {
  // Keys in geth's order (gen_callframe_json.go), optional ones omitted when empty.
  return {
    type: frame.type,
    from: toHex(frame.from),
    gas: toQuantity(frame.gas),
    gasUsed: toQuantity(frame.gasUsed),
    ...(frame.to !== undefined && { to: toHex(frame.to) }),
    input: toHex(frame.input),
    ...(frame.output !== undefined && frame.output.length > 0 && { output: toHex(frame.output) }),
    ...(frame.error !== undefined && { error: frame.error }),
    ...(frame.revertReason !== undefined && { revertReason: frame.revertReason }),
    ...(frame.calls.length > 0 && { calls: frame.calls.map(render) }),
    ...(frame.logs.length > 0 && { logs: frame.logs }),
    ...(frame.value !== undefined && { value: toQuantity(frame.value) }),
  }
}

/**
 * The callTracer's declaration (registry.ts): `tracer: 'callTracer'`, its
 * `tracerConfig` `{ onlyTopCall?, withLog? }` (booleans, absent or null: false;
 * go-ethereum's `native.callTracerConfig`, whose decoding texts a bad one gets), its
 * result the transaction's call frame ({@link CallFrameJson}).
 */
export const callTracer = defineTracer({
  name: 'callTracer',
  config: (value, ctx) => {
    const config = configObject(value, 'native.callTracerConfig', ctx)
    return { onlyTopCall: flag(config, 'onlyTopCall', 'callTracerConfig', ctx), withLog: flag(config, 'withLog', 'callTracerConfig', ctx) }
  },
  create: (config, env) => new CallTracer({ ...config, sizeLimit: env.sizeLimit }),
})
