/**
 * What the tracers of debug_traceTransaction and debug_traceCall share: the events
 * of @ethereumjs/evm they listen to (on an engine of their own, never on the
 * devnet's: the EVM's interpreter loop runs its fast path only without step
 * listeners), and go-ethereum's texts for EVM errors.
 */
import { DualnetError, type DualnetErrorCode } from '../../errors/base.ts'
import type { EVM } from '@ethereumjs/evm'
import type { ExecutionOutcome } from '../execution.ts'
import type { AccountRecord } from '../../state/worldState.ts'

/** The EVM's event emitter. */
export type EvmEvents = EVM['events']

/** The `step` event of @ethereumjs/evm 10 (interpreter.js `_runStepHook`), as far as the tracers read it. */
export interface StepEvent {
  pc: number
  /** Gas left before the opcode. */
  gasLeft: bigint
  gasRefund: bigint
  /** `fee`: static gas; `dynamicFee`: static + dynamic gas of this step (without gas passed to a callee). */
  opcode: { name: string; fee: number; dynamicFee: bigint; code: number }
  /** Bottom first. */
  stack: bigint[]
  /** 0 for the transaction's own frame. */
  depth: number
  /** Storage context (the caller's under DELEGATECALL). */
  address: { bytes: Uint8Array }
  /** The executing account (the storage context's) as the interpreter holds it: its balance is current (the EVM refreshes it after each call, create and store). */
  account: { balance: bigint }
  /** Memory before the opcode (its size before any expansion of this opcode). */
  memory: Uint8Array
  stateManager: { getStorage(address: unknown, key: Uint8Array): Promise<Uint8Array> }
}

/** The `beforeMessage` event: a call frame starts. */
export interface MessageEvent {
  depth: number
  caller: { bytes: Uint8Array }
  to?: { bytes: Uint8Array } | undefined
  value: bigint
  data: Uint8Array
  gasLimit: bigint
  delegatecall: boolean
  salt?: Uint8Array | undefined
  /**
   * The address whose code runs: `to` for a CALL or STATICCALL, the callee for a
   * DELEGATECALL or CALLCODE, whose `to` is the running contract (ethereumjs runs them in
   * the caller's context). A getter that throws for a creation (no `to`): read it only
   * when `to` is set.
   */
  codeAddress?: { bytes: Uint8Array } | undefined
}

/** The `afterMessage` event: a call frame ends. */
export interface MessageResultEvent {
  createdAddress?: { bytes: Uint8Array } | undefined
  execResult: { executionGasUsed: bigint; returnValue: Uint8Array; exceptionError?: { error: string } | undefined }
}

/**
 * The listeners of one tracer. A `step` listener taking a second argument is awaited
 * by the EVM until it calls it (ethereumjs' `_emit`), for reads of state.
 */
export interface TraceListeners {
  step(step: StepEvent, resolve?: () => void): void
  beforeMessage(message: MessageEvent): void
  afterMessage(result: MessageResultEvent): void
}

/** Adds `listeners` to `events`; returns the function that removes them. */
export function listen(events: EvmEvents, listeners: TraceListeners): () => void {
  const { step, beforeMessage, afterMessage } = listeners
  events.on('step', step as never)
  events.on('beforeMessage', beforeMessage as never)
  events.on('afterMessage', afterMessage as never)
  return () => {
    events.off('step', step as never)
    events.off('beforeMessage', beforeMessage as never)
    events.off('afterMessage', afterMessage as never)
  }
}

/**
 * A trace grew beyond its tracer's size limit (the devnet's `traceSizeLimit`):
 * recording stopped there, and the tracer's `result` throws this. Nothing else
 * happened (a replay changes nothing).
 */
export class TraceTooLargeError extends DualnetError {
  override name = 'TraceTooLargeError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_TRACE_TOO_LARGE'
}

/**
 * A tracer of one execution, whose result is `R` (its JSON). Several may listen to one
 * execution: each attaches its own listeners (a tracer running others, as
 * go-ethereum's muxTracer, attaches theirs and joins their results).
 */
export interface Tracer<R = unknown> {
  /** Starts listening to `events`; returns the function that stops listening. */
  attach(events: EvmEvents): () => void
  /**
   * Hands a tracer that reads accounts (go-ethereum's prestateTracer) the replay's
   * world, before the execution starts; optional, called by chain/replay.ts.
   */
  bind?(state: TraceState): void
  /** The JSON result once the execution ended with `outcome`; `gasLimit` is the transaction's (or call's). */
  result(outcome: ExecutionOutcome, gasLimit: bigint): R
}

/**
 * The world a replayed execution runs over, read synchronously: before the execution
 * ends, the state before it (the running transaction's writes stay in the EVM's own
 * overlay until it ends); once it ended, the state after it. Addresses and slots as
 * lower-case hex without 0x (40 and 64 digits).
 */
export interface TraceState {
  account(address: string): AccountRecord
  storage(address: string, slot: string): Uint8Array
  code(codeHash: string | undefined): Uint8Array
  /** The block's COINBASE (go-ethereum's prestateTracer looks it up: fees move its balance). */
  readonly coinbase: Uint8Array
  /** Where the traced execution sits (go-ethereum's `tracers.Context`; the flatCallTracer names it in each entry). */
  readonly position: TracePosition
  /** Whether the world holds the execution's writes once it ended (a mined transaction's replay: yes; debug_traceCall's simulation: no, so no state after it can be read). */
  readonly committed: boolean
}

/**
 * Where a traced execution sits: a mined transaction's block hash and number, its hash
 * and index; a call (debug_traceCall) the number of the block it runs in, no hashes and
 * index 0 (go-ethereum's empty context of `TraceCall`). Hashes 0x-hex.
 */
export interface TracePosition {
  blockHash: `0x${string}` | null
  blockNumber: number
  transactionHash: `0x${string}` | null
  transactionPosition: number
}

/**
 * A trace that cannot be made: an unknown or native transaction or block, one a replay
 * cannot run, or a tracer mode the trace cannot serve (prestateTracer's diffMode on a
 * call); JSON-RPC -32000. Raised by the replays (chain/replay.ts) and the tracers.
 */
export class TraceUnavailableError extends DualnetError {
  override readonly name = 'TraceUnavailableError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_TRACE_UNAVAILABLE'
}

/**
 * go-ethereum's text (core/vm/errors.go) for an @ethereumjs/evm error; `op` names the
 * failing opcode for an invalid one. Texts without a geth counterpart pass through.
 */
export function gethErrorText(error: string, op?: string): string {
  switch (error) {
    case 'revert':
      return 'execution reverted'
    case 'invalid opcode':
      return op === undefined ? 'invalid opcode' : `invalid opcode: ${op}`
    case 'invalid JUMP':
      return 'invalid jump destination'
    case 'static state change':
      return 'write protection'
    case 'code store out of gas':
      return 'contract creation code storage out of gas'
    case 'code size to deposit exceeds maximum code size':
      return 'max code size exceeded'
    case 'create collision':
      return 'contract address collision'
    case 'insufficient balance':
      return 'insufficient balance for transfer'
    case 'invalid bytecode deployed':
      return 'invalid code: must not begin with 0xef'
    default:
      return error
  }
}
