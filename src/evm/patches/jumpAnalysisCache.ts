/**
 * Caches @ethereumjs/evm's jump-destination analysis per code (issue 8, deliverable 3).
 *
 * On every call frame that reaches a JUMP/JUMPI, ethereumjs' `Interpreter` runs
 * `_getValidJumpDestinations(code)`: one pass over the whole code building a
 * JUMPDEST bitmap, every PUSH argument decoded to a bigint and the opcode-table
 * entry of every byte. The result depends only on the code bytes, the EVM's opcode
 * table (`evm._opcodeMap`, rebuilt on a hardfork change) and whether EIP-8024 is
 * active; the interpreter and the opcode handlers only read it (`jumpIsValid`,
 * PUSH, the run loop). So one analysis per code array serves every frame.
 *
 * `Interpreter` is not exported and the package's `exports` map blocks deep imports,
 * so the installer takes it from the package's `interpreter.js` file, the same module
 * instance `evm.js` imports (ethereumjsModules.ts: by URL from source, bundled in
 * dist/). It then wraps
 * `Interpreter.prototype._getValidJumpDestinations` with a two-level cache: a WeakMap
 * keyed by the EVM instance, then a WeakMap keyed by the identity of the code
 * `Uint8Array` (the ledger hands out one array per code hash; init code is a fresh
 * array per creation and simply misses). Both levels are weak: nothing outlives the
 * EVM or the code. Code arrays must not be mutated in place after they ran.
 */
import { loadEvmModules } from '../ethereumjsModules.ts'
import { isUnpatched } from './switch.ts'

/** What `_getValidJumpDestinations` returns (read-only for everyone after it). */
interface JumpAnalysis {
  jumps: Uint8Array
  pushes: Record<number, bigint>
  opcodesCached: unknown[]
}

type Analyse = (this: InterpreterLike, code: Uint8Array) => JumpAnalysis

/** The fields of ethereumjs' `Interpreter` the cache reads. */
interface InterpreterLike {
  _evm: object & { _opcodeMap?: unknown }
  common: { isActivatedEIP(eip: number): boolean }
  lookupOpInfo: unknown
}

/** Analyses of one EVM, valid while its opcode table and EIP-8024 state stay as recorded. */
interface EvmEntry {
  opcodeMap: unknown
  eip8024: boolean
  byCode: WeakMap<Uint8Array, JumpAnalysis>
}

/** Marks the wrapper (global symbol, so two copies of dualnet never wrap twice). */
const ORIGINAL = Symbol.for('dualnet.jumpAnalysisCache.original')

let installing: Promise<boolean> | undefined

/**
 * Installs the per-code jump-analysis cache into the @ethereumjs/evm that
 * `import '@ethereumjs/evm'` resolves to from here. Idempotent and safe to call
 * concurrently; resolves to `true` when the cache is (now or already) installed.
 * Resolves to `false`, changing nothing, when that @ethereumjs/evm is not a verified
 * version, has no ESM `interpreter.js` with `Interpreter.prototype._getValidJumpDestinations`,
 * or its module instance cannot be proved to be the one `import` gives; never throws.
 *
 * With `evm`, also resolves to `false` unless `evm` is an instance of the patched
 * package's `EVM` class (so a VM that brought its own nested copy is noticed).
 */
export async function installJumpAnalysisCache(evm?: object): Promise<boolean> {
  installing ??= install()
  const installed = await installing
  if (!installed || evm === undefined) return installed
  try {
    const { EVM } = (await import(import.meta.resolve('@ethereumjs/evm'))) as { EVM: unknown }
    return typeof EVM === 'function' && evm instanceof EVM
  } catch {
    return false
  }
}

async function install(): Promise<boolean> {
  const Interpreter = (await loadEvmModules())?.Interpreter
  if (Interpreter === undefined) return false
  const proto = Interpreter.prototype as { _getValidJumpDestinations?: unknown; lookupOpInfo?: unknown }
  const analyse = proto._getValidJumpDestinations
  if (typeof analyse !== 'function' || analyse.length !== 1 || typeof proto.lookupOpInfo !== 'function') return false
  if (ORIGINAL in analyse) return true
  proto._getValidJumpDestinations = cached(analyse as Analyse, proto.lookupOpInfo)
  return true
}

function cached(analyse: Analyse, lookupOpInfo: unknown): Analyse {
  const evms = new WeakMap<object, EvmEntry>()
  const wrapper = function (this: InterpreterLike, code: Uint8Array): JumpAnalysis {
    // An interpreter with its own opcode lookup is not covered by the key, and an EVM built unpatched wants none: no cache.
    if (this.lookupOpInfo !== lookupOpInfo || isUnpatched(this._evm)) return analyse.call(this, code)
    const evm = this._evm
    const opcodeMap = evm._opcodeMap
    const eip8024 = this.common.isActivatedEIP(8024)
    let entry = evms.get(evm)
    if (entry === undefined || entry.opcodeMap !== opcodeMap || entry.eip8024 !== eip8024) {
      entry = { opcodeMap, eip8024, byCode: new WeakMap() }
      evms.set(evm, entry)
    }
    let analysis = entry.byCode.get(code)
    if (analysis === undefined) {
      analysis = analyse.call(this, code)
      entry.byCode.set(code, analysis)
    }
    return analysis
  }
  Object.defineProperty(wrapper, ORIGINAL, { value: analyse })
  return wrapper
}
