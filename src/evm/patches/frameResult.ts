/**
 * `EVM.runInterpreter` and `EVM._executeCall` without their slow object spreads.
 *
 * @ethereumjs/evm 10.1.3 ends every call frame by building the frame's result with
 * `{ ...runState, ...result, ...env }`, and starts every CALL frame by copying its
 * message with `{ ...{ codeAddress }, ...message, gasLimit }`. These spreads fall off
 * V8's fast clone path on Node 20: tens of microseconds per frame (a third of an
 * `eth_call balanceOf` in the profile, issue 8), and the copies go straight to the old
 * generation (about 40 MiB of the peak RSS of the peer bench's workload), where
 * `Object.assign` gives the same object in about a microsecond. The replacements are
 * ethereumjs' methods with the spreads written as `Object.assign` (same sources, same
 * order, so the same keys and values). `runInterpreter` defers to the original when
 * the EVM has no block or transaction context set (a direct call outside `runCall`);
 * `_executeCall` is the Istanbul path of the original (sender debit, recipient credit,
 * code load, precompile or interpreter) and defers to the original whenever one of
 * the EIPs that add to that method is active (2780, 6800, 7708, 7864, 7928, 8037),
 * or ethereumjs' debug mode or profiler is on.
 */
import type { EVMError } from '@ethereumjs/evm'
import { Account, Address } from '@ethereumjs/util'
import { loadEvmModules } from '../ethereumjsModules.ts'
import { isUnpatched } from './switch.ts'

/** The parts of a message the method reads. */
interface MessageLike {
  to?: Address
  caller?: Address
  data?: Uint8Array
  value?: bigint
  code?: unknown
  isStatic?: boolean
  isCreate?: boolean
  depth?: number
  codeAddress?: Address
  gasRefund?: bigint
  chargeCodeAccesses?: boolean
  blobVersionedHashes?: Uint8Array[]
  accessWitness?: { commit(): void }
  createdAddresses?: Set<string>
  selfdestruct?: Map<string, Uint8Array>
  gasLimit: bigint
}

/** The EVM fields the method reads. */
interface EvmLike {
  stateManager: { getAccount(address: Address): Promise<Account | undefined> }
  blockchain: unknown
  journal: unknown
  performanceLogger: unknown
  _optsCached: { profiler?: unknown }
  _block?: unknown
  _tx?: { gasPrice: bigint; origin?: Address }
}

interface InterpreterInstance {
  _result: { logs: unknown[]; returnValue?: Uint8Array; selfdestruct: Map<string, Uint8Array>; createdAddresses?: Set<string> }
  _env: object
  run(code: unknown, opts: object): Promise<{ runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled: bigint }; exceptionError?: EVMError }>
}
type InterpreterConstructor = new (...args: unknown[]) => InterpreterInstance
type RunInterpreter = (this: EvmLike, message: MessageLike, opts?: { initialLogs?: unknown[] }) => Promise<unknown>

const ORIGINAL = Symbol.for('dualnet.frameResult.original')
const ORIGINAL_CALL = Symbol.for('dualnet.frameResult.originalExecuteCall')
/**
 * EIPs that add steps to `_executeCall`; where any is active the original runs. Not
 * EIP-7702 (Prague): 10.1.3's `_executeCall` reads it only inside its EIP-2780 branch
 * (a delegated recipient's access cost at depth 0), which 2780 here already sends to the
 * original; so Prague, the hardfork Hardhat suites run on, keeps the fast path.
 */
const CALL_EIPS = [2780, 6800, 7708, 7864, 7928, 8037]
const ZERO_ADDRESS = new Uint8Array(20)

let installing: Promise<boolean> | undefined

/**
 * Replaces `EVM.prototype.runInterpreter` of the @ethereumjs/evm everyone imports,
 * once per process (idempotent). Resolves to false, changing nothing, when that
 * package is not a verified version; never throws.
 */
export function installFrameResultPatch(): Promise<boolean> {
  installing ??= install()
  return installing
}

async function install(): Promise<boolean> {
  const modules = await loadEvmModules()
  if (modules === undefined) return false
  const { EVM, EVMError } = modules
  const Interpreter = modules.Interpreter as InterpreterConstructor
  const proto = EVM.prototype as unknown as { runInterpreter?: RunInterpreter }
  const original = proto.runInterpreter
  if (typeof original !== 'function') return false
  if (ORIGINAL in original) return true
  const runInterpreter: RunInterpreter = async function (this: EvmLike, message, opts = {}) {
    if (this._block === undefined || this._tx === undefined || isUnpatched(this)) return original.call(this, message, opts)
    const contract = (await this.stateManager.getAccount(message.to ?? new Address(ZERO_ADDRESS))) ?? new Account()
    const env = {
      address: message.to ?? new Address(ZERO_ADDRESS),
      caller: message.caller ?? new Address(ZERO_ADDRESS),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? 0n,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx.gasPrice,
      origin: this._tx.origin ?? message.caller ?? new Address(ZERO_ADDRESS),
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    }
    const interpreter = new Interpreter(this, this.stateManager, this.blockchain, env, message.gasLimit, this.journal, this.performanceLogger, this._optsCached.profiler)
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses
    const interpreterRes = await interpreter.run(message.code, opts)
    let result: object = interpreter._result
    let gasUsed = message.gasLimit - interpreterRes.runState.gasLeft
    const failure = interpreterRes.exceptionError
    if (failure) {
      if (failure.error !== EVMError.errorMessages.REVERT && failure.error !== EVMError.errorMessages.INVALID_EOF_FORMAT) {
        gasUsed = message.gasLimit
      }
      // Clear the result on error.
      result = Object.assign({}, result, { logs: [], selfdestruct: new Map(), createdAddresses: new Set() })
    }
    message.accessWitness?.commit()
    return Object.assign({}, result, {
      runState: Object.assign({}, interpreterRes.runState, result, interpreter._env),
      exceptionError: failure,
      gas: interpreterRes.runState?.gasLeft,
      executionGasUsed: gasUsed,
      gasRefund: interpreterRes.runState.gasRefund,
      stateGasSpilled: interpreterRes.runState.stateGasSpilled,
      returnValue: (result as { returnValue?: Uint8Array }).returnValue ?? new Uint8Array(0),
    })
  }
  Object.defineProperty(runInterpreter, ORIGINAL, { value: original })
  proto.runInterpreter = runInterpreter
  installExecuteCall(EVM)
  return true
}

/** The parts of a CALL message `_executeCall` reads and writes. */
interface CallMessage extends MessageLike {
  to: Address
  caller: Address
  value: bigint
  delegatecall?: boolean
  isCompiled?: boolean
}

/** The EVM methods and fields the Istanbul `_executeCall` uses. */
interface CallingEvm extends EvmLike {
  DEBUG: boolean
  common: { isActivatedEIP(eip: number): boolean }
  _reduceSenderBalance(account: Account, message: CallMessage): Promise<void>
  _addToBalance(account: Account, message: CallMessage): Promise<void>
  _loadCode(message: CallMessage): Promise<void>
  runPrecompile(code: unknown, data: Uint8Array | undefined, gasLimit: bigint): Promise<{ gasRefund?: bigint; executionGasUsed: bigint }>
  runInterpreter(message: object, opts: { initialLogs?: unknown[] }): Promise<{ executionGasUsed: bigint }>
  postMessageCleanup(): void
}
type ExecuteCall = (this: CallingEvm, message: CallMessage) => Promise<{ execResult: unknown }>

function installExecuteCall(EVM: { prototype: object }): void {
  const proto = EVM.prototype as unknown as { _executeCall?: ExecuteCall }
  const original = proto._executeCall
  if (typeof original !== 'function' || ORIGINAL_CALL in original) return
  const plainCommons = new WeakMap<object, boolean>()
  const executeCall: ExecuteCall = async function (this: CallingEvm, message) {
    let plain = plainCommons.get(this.common)
    if (plain === undefined) {
      plain = CALL_EIPS.every((eip) => !this.common.isActivatedEIP(eip))
      plainCommons.set(this.common, plain)
    }
    if (!plain || isUnpatched(this) || this.DEBUG || (this._optsCached.profiler as { enabled?: boolean } | undefined)?.enabled === true) {
      return original.call(this, message)
    }
    const gasLimit = message.gasLimit
    const account = (await this.stateManager.getAccount(message.caller)) ?? new Account()
    let errorMessage: unknown
    // Move the value (not for DELEGATECALL); a failure ends the frame early.
    if (!message.delegatecall) {
      try {
        await this._reduceSenderBalance(account, message)
      } catch (e) {
        errorMessage = e
      }
    }
    const toAccount = (await this.stateManager.getAccount(message.to)) ?? new Account()
    if (!message.delegatecall) {
      try {
        await this._addToBalance(toAccount, message)
      } catch (e) {
        errorMessage = e
      }
    }
    await this._loadCode(message)
    const code = message.code as Uint8Array | ((...args: unknown[]) => unknown) | undefined
    if (!code || (typeof code !== 'function' && code.length === 0) || errorMessage !== undefined) {
      return {
        execResult: { gasRefund: message.gasRefund, executionGasUsed: 0n, exceptionError: errorMessage, returnValue: new Uint8Array(0), logs: undefined },
      }
    }
    let result
    if (message.isCompiled) {
      result = await this.runPrecompile(message.code, message.data, gasLimit)
      result.gasRefund = message.gasRefund
    } else {
      result = await this.runInterpreter(Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit }), { initialLogs: undefined })
    }
    if (message.depth === 0) this.postMessageCleanup()
    return { execResult: result }
  }
  Object.defineProperty(executeCall, ORIGINAL_CALL, { value: original })
  proto._executeCall = executeCall
}
