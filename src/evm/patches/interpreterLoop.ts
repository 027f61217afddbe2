/**
 * A synchronous fast path through @ethereumjs/evm's interpreter loop.
 *
 * `Interpreter.run` awaits `runStep` for every opcode, and `runStep` is an async
 * function: each PUSH, DUP, ADD or JUMP costs a promise and a microtask turn, which
 * is most of the interpreter's time on a contract call (profile of `eth_call
 * balanceOf`, issue 8). This loop does inline what `runStep` does (dynamic gas,
 * invalid-opcode check, gas, program counter, handler) and awaits only where a gas
 * handler or an opcode handler is asynchronous; most executed opcodes (static gas,
 * synchronous handler: PUSH, DUP, ADD, JUMP, …) then cost no promise at all.
 * Anything the fast path does not model runs the original `run`: EOF code, step
 * listeners (tracing, the invalid-opcode explanation), ethereumjs debug logging, its
 * profiler, and the EIPs that hook into the loop (6800, 7864, 7928, 8037, none of
 * which Istanbul or any hardfork the devnet offers activates).
 *
 * Verified against @ethereumjs/evm 10.1.3 (the pinned version), whose `run`/`runStep`
 * it mirrors; `installInterpreterLoop` refuses other shapes.
 *
 * Both paths are paced (pacer.ts): every `CHECK_STEPS` steps the run looks at the
 * clock and yields to the event loop, or stops, as its EVM's {@link Pacer} says. The
 * fast path counts in its loop; the original path through a wrapper of `runStep`
 * that adds no promise of its own.
 */
import type { EVMError } from '@ethereumjs/evm'
import { coverageRecorderOf } from '../coverage.ts'
import { loadEvmModules } from '../ethereumjsModules.ts'
import { pacerOf, type Pacer } from '../pacer.ts'
import { isUnpatched } from './switch.ts'

/** The parts of an opcode-table entry the loop reads. */
interface OpcodeEntry {
  opcodeInfo: { code: number; feeBigInt: bigint; dynamicGas: boolean; isAsync: boolean; isInvalid: boolean }
  opHandler: (runState: RunState, common: unknown) => void | Promise<void>
  gasHandler?: (runState: RunState, gas: bigint, common: unknown) => Promise<bigint> | bigint
}

/** The parts of the interpreter's run state the loop reads and writes. */
interface RunState {
  gasLeft: bigint
  programCounter: number
  opCode: number
  code: Uint8Array
  validJumps: Uint8Array
  cachedPushes: Record<number, bigint>
  shouldDoJumpAnalysis: boolean
  env: { accessWitness?: { commit(): void; revert(): void } }
}

/** The parts of ethereumjs' `Interpreter` the loop uses. */
interface InterpreterLike {
  _runState: RunState
  _evm: { DEBUG: boolean; events: { listenerCount(name: string): number } } & object
  /** The frame's environment; `isCreate`: init code runs (a creation). */
  _env: { isCreate?: boolean }
  common: { isActivatedEIP(eip: number): boolean }
  profilerOpts?: { enabled?: boolean }
  runStep(entry?: OpcodeEntry): Promise<void>
  useGas(amount: bigint, context?: unknown): void
  lookupOpInfo(op: number): OpcodeEntry
  _getValidJumpDestinations(code: Uint8Array): { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: OpcodeEntry[] }
}

type Run = (this: InterpreterLike, code: Uint8Array, opts?: { pc?: number }) => Promise<{ runState: RunState; exceptionError: EVMError | undefined }>

/** EIPs whose hooks live in `run`/`runStep`; the fast path runs only where none is active. */
const LOOP_EIPS = [3540, 6800, 7864, 7928, 8037]
const EOF_FORMAT = 0xef
const JUMP = 0x56
const JUMPI = 0x57
const JUMPSUB = 0x5e

const ORIGINAL = Symbol.for('dualnet.interpreterLoop.original')
const SSTORE = 0x55

/**
 * What an execution did that depends on the gas it had left: set by the fast loop for
 * an EVM {@link watchGas} registered it for. eth_estimateGas reads it to know, without
 * running it again, that a run with exactly the gas used would do the same.
 */
export interface GasWatch {
  /**
   * False once the run executed an opcode whose outcome depends on the gas left: GAS,
   * the CALL and CREATE families (EIP-150 forwards all but 1/64 of what is left), or
   * ran a frame outside the fast loop (a step listener, EOF code), which is not watched.
   */
  independent: boolean
  /** The least gas left before an SSTORE (EIP-2200's sentry fails it at 2,300 or less); undefined: none ran. */
  sstoreGasLeft: bigint | undefined
}

/** Opcodes whose outcome depends on the gas left besides SSTORE's sentry: GAS, CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL. */
const GAS_DEPENDENT = new Uint8Array(256)
for (const op of [0x5a, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]) GAS_DEPENDENT[op] = 1

const gasWatches = new WeakMap<object, GasWatch>()

/** Has the fast loop fill `watch` for every run of `evm` (the engine resets it before a run). */
export function watchGas(evm: object, watch: GasWatch): void {
  gasWatches.set(evm, watch)
}

/**
 * Replaces `Interpreter.prototype.run` of the @ethereumjs/evm everyone imports with
 * the fast loop, once per process (idempotent, safe to call concurrently). Resolves to
 * false, changing nothing, when that package is not a verified version or its
 * interpreter lacks the methods the loop relies on; never throws.
 */
export async function installInterpreterLoop(): Promise<boolean> {
  const modules = await loadEvmModules()
  if (modules === undefined) return false
  const { Interpreter, EVMError } = modules
  const proto = Interpreter.prototype as Partial<InterpreterLike> & { run?: Run }
  const original = proto.run
  if (
    typeof original !== 'function' ||
    typeof proto.runStep !== 'function' ||
    typeof proto.useGas !== 'function' ||
    typeof proto.lookupOpInfo !== 'function' ||
    typeof proto._getValidJumpDestinations !== 'function'
  ) {
    return false
  }
  if (ORIGINAL in original) return true
  const originalStep = proto.runStep
  // The original path: one pacing check every CHECK_STEPS steps, the step's own promise otherwise.
  proto.runStep = function (this: InterpreterLike, entry?: OpcodeEntry): Promise<void> {
    // An EVM built with the patches off is paced by its `step` listener (pacer.ts), not here.
    const pacer = isUnpatched(this._evm) ? undefined : pacerOf(this._evm)
    // Coverage of a frame the fast loop does not run (a step listener, EOF code): as the loop records it.
    const step = coverageRecorderOf(this._evm) === undefined ? originalStep : coveredStep
    if (pacer !== undefined && --pacer.countdown <= 0) {
      const wait = pacer.check()
      if (wait !== undefined) return wait.then(() => step.call(this, entry))
    }
    return step.call(this, entry)
  }
  // The original step recording its opcode into the EVM's recorder, as the fast loop does.
  const coveredStep = async function (this: InterpreterLike, entry?: OpcodeEntry): Promise<void> {
    const runState = this._runState
    const pc = runState.programCounter
    const hits = coverageRecorderOf(this._evm)!.hitsFor(runState.code, this._env.isCreate === true)
    hits.counts[pc]!++
    await originalStep.call(this, entry)
    if (runState.opCode === JUMPI && runState.programCounter !== pc + 1) hits.jumps[pc]!++
  }
  const eligibleCommons = new WeakMap<object, boolean>()
  const run: Run = async function (this: InterpreterLike, code, opts = {}) {
    const evm = this._evm
    let plain = eligibleCommons.get(this.common)
    if (plain === undefined) {
      plain = LOOP_EIPS.every((eip) => !this.common.isActivatedEIP(eip))
      eligibleCommons.set(this.common, plain)
    }
    const watch = gasWatches.get(evm)
    // Coverage (evm/coverage.ts): the frame's counters, undefined when off (one lookup per frame).
    const hits = coverageRecorderOf(evm)?.hitsFor(code, this._env.isCreate === true)
    if (!plain || isUnpatched(evm) || evm.DEBUG || this.profilerOpts?.enabled === true || evm.events.listenerCount('step') > 0 || code[0] === EOF_FORMAT) {
      if (watch !== undefined) watch.independent = false
      return original.call(this, code, opts)
    }
    const runState = this._runState
    runState.code = code
    runState.programCounter = opts.pc ?? runState.programCounter
    const start = runState.programCounter
    if (start !== 0 && (start < 0 || start >= code.length)) throw new Error('Internal error: program counter not in range')
    let exceptionError: EVMError | undefined
    let cached: OpcodeEntry[] | undefined
    const pacer: Pacer | undefined = pacerOf(evm)
    while (runState.programCounter < code.length) {
      // Outside the try below: a timeout or an abort ends the whole execution, not the frame.
      if (pacer !== undefined && --pacer.countdown <= 0) {
        const wait = pacer.check()
        if (wait !== undefined) await wait
      }
      const pc = runState.programCounter
      let entry: OpcodeEntry
      if (cached === undefined) {
        const op = code[pc]!
        // As `run`: analyse jump destinations only once the code reaches a jump.
        if (op === JUMP || op === JUMPI || op === JUMPSUB) {
          const { jumps, pushes, opcodesCached } = this._getValidJumpDestinations(code)
          runState.validJumps = jumps
          runState.cachedPushes = pushes
          runState.shouldDoJumpAnalysis = false
          cached = opcodesCached
        }
        entry = this.lookupOpInfo(op)
      } else {
        entry = cached[pc]!
      }
      const info = entry.opcodeInfo
      runState.opCode = info.code
      if (hits !== undefined) hits.counts[pc]!++
      if (watch !== undefined) {
        if (info.code === SSTORE) {
          if (watch.sstoreGasLeft === undefined || runState.gasLeft < watch.sstoreGasLeft) watch.sstoreGasLeft = runState.gasLeft
        } else if (GAS_DEPENDENT[info.code] === 1) watch.independent = false
      }
      try {
        // runStep, inline: a promise only where the gas handler or the opcode is async.
        let gas = info.feeBigInt
        if (info.dynamicGas) {
          // The memory opcodes' gas functions are synchronous (memoryGas.ts): no promise to wait for.
          const charged = entry.gasHandler!(runState, gas, this.common)
          gas = typeof charged === 'bigint' ? charged : await charged
        }
        if (info.isInvalid) throw new EVMError(EVMError.errorMessages.INVALID_OPCODE)
        this.useGas(gas, info)
        runState.programCounter++
        const handler = entry.opHandler
        if (info.isAsync) {
          // SLOAD and SSTORE answer without a promise where the state is in memory (storageOpcodes.ts).
          const done = handler(runState, this.common)
          if (done !== undefined) await done
        } else handler(runState, this.common)
        // JUMPI's handler sets the counter to its destination when it jumps; it stays at pc + 1 when it falls through.
        if (hits !== undefined && info.code === JUMPI && runState.programCounter !== pc + 1) hits.jumps[pc]!++
        runState.env.accessWitness?.commit()
      } catch (e) {
        runState.env.accessWitness?.revert()
        if (!(typeof e === 'object' && e !== null && (e as { errorType?: unknown }).errorType === 'EVMError')) throw e
        if ((e as EVMError).error !== EVMError.errorMessages.STOP) exceptionError = e as EVMError
        break
      }
    }
    return { runState, exceptionError }
  }
  Object.defineProperty(run, ORIGINAL, { value: original })
  proto.run = run
  return true
}
