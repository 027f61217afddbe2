/**
 * go-ethereum's callTracer (eth/tracers/native/call.go): the tree of call frames
 * `{ type, from, gas, gasUsed, to?, input, output?, error?, revertReason?, calls?,
 * logs?, value? }` with quantities as 0x-hex and addresses in lower case. Options
 * (`tracerConfig`): `onlyTopCall` keeps the transaction's own frame only; `withLog`
 * adds the LOG0..LOG4 records of each frame as `{ address, topics, data, position }`
 * (`position`: the number of sub-calls the frame had made before the log), logs of
 * failed frames and their children removed, as geth does. A SELFDESTRUCT is a frame of
 * its own, as geth's opSelfdestruct enters and exits one: `{ type: 'SELFDESTRUCT',
 * from: <the contract>, gas: '0x0', gasUsed: '0x0', to: <the beneficiary>, input:
 * '0x', value: <the balance it moves> }`, a child of the frame that ran it. A
 * DELEGATECALL or CALLCODE frame has the running contract as `from` and the code's
 * address as `to`, as geth's (a DELEGATECALL's `value` the one it runs with).
 *
 * With `withLog`, the chain's synthetic gas-token Transfer logs (reference §6.4,
 * evm/transferLogs.ts) are in the frames' logs where the node emits them: a frame's
 * value movement first in that frame (position 0), a SELFDESTRUCT payout in the frame
 * that ran it (before the SELFDESTRUCT frame), and the fee last in the top frame
 * (emitted after the execution, as geth's OnLog puts a log that comes after the top
 * frame exited). A failed frame keeps none of its logs (geth's clearFailedLogs), so a
 * failed transaction's trace has no fee log either, though its receipt has one.
 */
import type { ExecutionOutcome } from '../execution.ts'
import { decodeRevert } from '../revertReason.ts'
import { TraceTooLargeError, gethErrorText, listen, type EvmEvents, type MessageEvent, type MessageResultEvent, type StepEvent, type Tracer } from './tracer.ts'
import { configObject, defineTracer, flag } from './definition.ts'
import { toHex, toQuantity } from '../../util/hex.ts'
import { GAS_TOKEN_ADDRESS, GOVERNANCE_ADDRESS } from '../../core/constants.ts'
import { gasTransferLog, type RawLog } from '../transferLogs.ts'
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
  /** What the size error advises (default: the callTracer's onlyTopCall, or no withLog); a tracer built on this one names its own way out. */
  tooLargeHint?: string
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
  /** Runs in a static context (a STATICCALL, or below one): its SELFDESTRUCT fails before it runs. */
  static: boolean
}

const EMPTY = new Uint8Array(0)
const LOG0 = 0xa0
const LOG4 = 0xa4
const SELFDESTRUCT = 0xff

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
    const hint = this.#config.tooLargeHint ?? "trace with the callTracer's onlyTopCall, or without withLog"
    return new TraceTooLargeError(`trace larger than ${this.#config.sizeLimit} bytes (option traceSizeLimit): ${hint}`)
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
    if (op === SELFDESTRUCT) {
      this.#selfdestruct(frame, step)
      return
    }
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

  /**
   * geth's SELFDESTRUCT frame (core/vm/instructions.go opSelfdestruct: OnEnter with the
   * contract, the beneficiary, no input, gas 0 and the contract's balance, then OnExit
   * with gas used 0), recorded when the opcode will run: not in a static context
   * (write protection) nor short of its gas (the step event comes before both checks).
   */
  #selfdestruct(frame: Frame, step: StepEvent): void {
    if (frame.static || step.gasLeft < step.opcode.dynamicFee) return
    const onlyTop = this.#config.onlyTopCall === true
    const beneficiary = Uint8Array.from(Buffer.from((step.stack[step.stack.length - 1] ?? 0n).toString(16).padStart(40, '0').slice(-40), 'hex'))
    const balance = step.account.balance
    // The payout's Transfer log, where the opcode runs (transferLogs.ts: any balance above 0, to the contract itself too); with onlyTopCall, the top frame's only.
    if (this.#config.withLog && balance > 0n && (!onlyTop || this.#stack.length === 1)) {
      if (!this.#grow(200)) return
      frame.logs.push(renderLog(gasTransferLog(step.address.bytes, beneficiary, balance), frame.calls.length))
    }
    // onlyTopCall keeps no frame below the top, the SELFDESTRUCT's neither.
    if (onlyTop || !this.#grow(250)) return
    frame.calls.push(newFrame('SELFDESTRUCT', step.address.bytes.slice(), beneficiary, EMPTY, 0n, balance, false))
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
    // The input copied: the EVM hands out views of the caller's memory, which later opcodes overwrite.
    const input = kept ? message.data.slice() : EMPTY
    const value = type === 'STATICCALL' ? undefined : message.value
    // geth names the running contract `from` and the code's address `to`; ethereumjs gives DELEGATECALL and CALLCODE the running contract as `to` (and DELEGATECALL the caller above it as `caller`).
    const code = type === 'DELEGATECALL' || type === 'CALLCODE' ? message.codeAddress : undefined
    const from = type === 'DELEGATECALL' && message.to !== undefined ? message.to.bytes : message.caller.bytes
    const to = code?.bytes ?? message.to?.bytes
    const frame = newFrame(type, from, to, input, message.gasLimit, value, type === 'STATICCALL' || (parent?.static ?? false))
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
      // The frame's value movement, logged before anything the callee logs (transferLogs.ts: CALL, CREATE, CREATE2 with value; DELEGATECALL and CALLCODE move none).
      const moves = frame.type === 'CALL' || frame.type === 'CREATE' || frame.type === 'CREATE2'
      if (this.#config.withLog && kept && moves && frame.value !== undefined && frame.value > 0n && frame.to !== undefined) {
        frame.logs.unshift(renderLog(gasTransferLog(frame.from, frame.to, frame.value), 0))
      }
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
    if (this.#config.withLog) {
      // The fee's Transfer log ends a mined transaction's logs (engine.ts appendFeeLog), after the top frame exited.
      const fee = outcome.logs.at(-1)
      if (fee !== undefined && isFeeLog(fee)) root.logs.push(renderLog(fee, root.calls.length))
      clearFailedLogs(root, false)
    }
    return render(root)
  }
}

/** A frame just entered: nothing used, returned or called yet. */
function newFrame(type: string, from: Uint8Array, to: Uint8Array | undefined, input: Uint8Array, gas: bigint, value: bigint | undefined, isStatic: boolean): Frame {
  return { type, from, to, input, gas, value, gasUsed: 0n, output: undefined, error: undefined, revertReason: undefined, calls: [], logs: [], lastOp: '', static: isStatic }
}

/** A synthetic log in callTracer's shape, at `position` (the frame's sub-calls before it). */
function renderLog([address, topics, data]: RawLog, position: number): CallLogJson {
  return { address: toHex(address), topics: topics.map((topic) => toHex(topic)), data: toHex(data), position: toQuantity(BigInt(position)) }
}

/** Whether `log` is the fee's gas-token Transfer (to governance), which no contract can emit: 0x…02 has no code. */
function isFeeLog([address, topics]: RawLog): boolean {
  const to = topics[2]
  return Buffer.compare(address, GAS_TOKEN_ADDRESS) === 0 && to !== undefined && Buffer.compare(to.subarray(12), GOVERNANCE_ADDRESS) === 0
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
