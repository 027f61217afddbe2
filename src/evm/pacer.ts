/**
 * Pacing of long EVM runs (issue 23): an execution that has run for a few
 * milliseconds hands the event loop back (`setImmediate`) so that other clients are
 * answered while it runs, and an execution with a budget stops at its deadline or
 * when its signal aborts (`devnet.close()`).
 *
 * The interpreter counts steps down on the {@link Pacer} of its EVM and calls
 * {@link Pacer.check} every {@link CHECK_STEPS} steps: a decrement per opcode, a clock
 * read every few hundred. The patched interpreter (patches/interpreterLoop.ts) does it
 * in its loop; an EVM built without the patches, through its `step` event
 * ({@link paceBySteps}). The time slice is the process's, not the run's: runs
 * interleaved on one event loop (a batch of traces, a trace beside an eth_call) share
 * it, so that one turn of the loop runs about one slice of EVM work however many runs
 * are in flight.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/** Steps between two looks at the clock (traced steps cost µs, plain ones tens of ns). */
export const CHECK_STEPS = 256

/** EVM work one turn of the event loop may do before the running execution yields, in ms. */
export const SLICE_MS = 2

/** Start of the current slice (performance.now()), process-wide. */
let sliceStart = performance.now()
/** The pending yield every run that is over the slice waits on, once per turn of the loop. */
let turn: Promise<void> | undefined

/** Resolves in the next turn of the event loop (after pending I/O), opening a new slice. */
function nextTurn(): Promise<void> {
  turn ??= new Promise<void>((resolve) => {
    setImmediate(() => {
      turn = undefined
      sliceStart = performance.now()
      resolve()
    })
  })
  return turn
}

/**
 * The limits of one execution: a deadline (performance.now() time, ms) and an abort
 * signal, either optional. What the run throws when one is reached is the error made
 * by `timeout` (the deadline) or the signal's reason.
 */
export interface ExecutionBudget {
  deadline?: number | undefined
  signal?: AbortSignal | undefined
  /** The error thrown at the deadline; default {@link ExecutionTimeoutError} `execution timeout`. */
  timeout?: (() => ExecutionTimeoutError) | undefined
}

/** An execution ran past its deadline (go-ethereum's tracer text, eth/tracers/api.go: `execution timeout`). */
export class ExecutionTimeoutError extends DualnetError {
  override name = 'ExecutionTimeoutError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_EXECUTION_TIMEOUT'
  constructor(message = 'execution timeout', options?: ErrorOptions) {
    super(message, options)
  }
}

/** An execution stopped because its devnet is closing (or its signal aborted otherwise). */
export class ExecutionAbortedError extends DualnetError {
  override name = 'ExecutionAbortedError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_EXECUTION_ABORTED'
}

/**
 * The pacing state of one EVM: the countdown the interpreter decrements, and the
 * budget of the execution running on it (one at a time: an engine is not re-entrant).
 */
export class Pacer {
  /** Steps until the next {@link check}; the interpreter decrements it and calls check at 0. */
  countdown = CHECK_STEPS
  #budget: ExecutionBudget | undefined

  /**
   * Runs `work` under `budget` (none: yields only). Throws at once, running nothing,
   * when the budget is spent already.
   */
  async run<T>(budget: ExecutionBudget | undefined, work: () => Promise<T>): Promise<T> {
    const outer = this.#budget
    this.#budget = budget
    try {
      this.#enforce()
      return await work()
    } finally {
      this.#budget = outer
    }
  }

  /**
   * Called by the interpreter every {@link CHECK_STEPS} steps: yields to the event loop
   * once the process's slice is spent, then throws when the budget is. Synchronous
   * (no promise) while neither happens.
   */
  check(): Promise<void> | undefined {
    this.countdown = CHECK_STEPS
    if (performance.now() - sliceStart < SLICE_MS) {
      this.#enforce()
      return undefined
    }
    return nextTurn().then(() => this.#enforce())
  }

  #enforce(): void {
    const budget = this.#budget
    if (budget === undefined) return
    const signal = budget.signal
    if (signal?.aborted === true) throw signal.reason instanceof Error ? signal.reason : new ExecutionAbortedError(String(signal.reason))
    if (budget.deadline !== undefined && performance.now() > budget.deadline) throw budget.timeout?.() ?? new ExecutionTimeoutError()
  }
}

const PACER = Symbol.for('dualnet.pacer')

/** Gives `evm` (an @ethereumjs/evm EVM) its pacer; the interpreter reads it as `interpreter._evm`'s. */
export function setPacer(evm: object, pacer: Pacer): void {
  Object.defineProperty(evm, PACER, { value: pacer })
}

/** The pacer of `evm`, or `undefined` for an EVM the devnet did not build. */
export function pacerOf(evm: object): Pacer | undefined {
  return (evm as { [PACER]?: Pacer })[PACER]
}

/** A `step` listener of two arguments: ethereumjs awaits it until it calls `resume` (evm.js `_emit`). */
type StepListener = (step: unknown, resume: (value?: Promise<void>) => void) => void

/**
 * Paces an EVM built without the patched interpreter (patches/index.ts) through its
 * `step` event, the extension point ethereumjs supports: the same countdown and
 * {@link Pacer.check}. A yield holds the step until the next turn of the event loop; a
 * spent budget rejects the step, which ends the run with the budget's error (ethereumjs
 * rethrows what is not an EVM error). Correctness, not speed: without it a trace's
 * timeout and `devnet.close()` could not stop a long run. A `step` listener makes
 * ethereumjs build an event per opcode, so this costs several times the patched loop.
 */
export function paceBySteps(events: { on(event: 'step', listener: StepListener): unknown }, pacer: Pacer): void {
  events.on('step', (_step, resume) => {
    if (--pacer.countdown > 0) resume()
    else resume(pacer.check())
  })
}
