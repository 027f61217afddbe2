/**
 * The modules of @ethereumjs/evm that dualnet builds its EVM from and patches at run
 * time (README "Design notes"), loaded file by file rather than through the package's
 * index:
 * - `Interpreter` is neither exported nor deep-importable (the package's `exports`
 *   map), and the patches of src/evm/patches/ (jumpAnalysisCache.ts, interpreterLoop.ts,
 *   frameResult.ts) need its prototype;
 * - the index also loads `createEVM`'s default state manager, @ethereumjs/statemanager
 *   with its trie and binary-tree packages (about 45 ms and 50 modules on the first
 *   execution), which dualnet, bringing its own state manager, never uses.
 * The files come from {@link importEvmFiles}: from source (tsx, vitest), the package's
 * files by URL; in the bundle of `npm run build`, the same files bundled in.
 */
import type { EVM, EVMError, getOpcodesForHF, NobleBN254, paramsEVM } from '@ethereumjs/evm'
import { importEvmFiles } from './ethereumjsFiles.ts'
import type { GasHelpers } from './patches/memoryGas.ts'
import type { StorageHelpers } from './patches/storageOpcodes.ts'

/** ethereumjs' `Interpreter` class, as far as its prototype goes. */
export interface InterpreterClass {
  prototype: object
}

/** The classes dualnet takes from @ethereumjs/evm's files. */
export interface EvmModules {
  EVM: typeof EVM
  EVMError: typeof EVMError
  NobleBN254: typeof NobleBN254
  /** The opcode table of a hardfork (public in the package's index too, as is {@link paramsEVM}; the SELFDESTRUCT payout log reads it, transferLogs.ts). */
  getOpcodesForHF: typeof getOpcodesForHF
  /** The EVM's gas parameters, which the EVM's constructor gives its Common. */
  paramsEVM: typeof paramsEVM
  Interpreter: InterpreterClass
  /**
   * The opcode helpers the per-EVM patches call (opcodes/util.js's `subMemUsage`, `divCeil`,
   * `trap` and `setLengthLeftStorage`, EIP2200.js's `updateSstoreGasEIP2200`, EIP2929.js's
   * `accessStorageEIP2929`) and the EVM's error messages: patches/memoryGas.ts and
   * patches/storageOpcodes.ts.
   */
  opcodeHelpers: GasHelpers & StorageHelpers
}

let loading: Promise<EvmModules | undefined> | undefined

/**
 * The classes of the @ethereumjs/evm that `import '@ethereumjs/evm'` resolves to from
 * here, or `undefined` when that package is not a verified version or its files do
 * not export them (callers then use the package's index, unpatched). Memoised; never
 * throws.
 */
export function loadEvmModules(): Promise<EvmModules | undefined> {
  loading ??= load()
  return loading
}

async function load(): Promise<EvmModules | undefined> {
  try {
    const files = await importEvmFiles()
    if (files === undefined) return undefined
    const { subMemUsage, divCeil, trap, setLengthLeftStorage } = files.opcodes
    const { updateSstoreGasEIP2200 } = files.eip2200
    const { accessStorageEIP2929 } = files.eip2929
    const errorMessages = (files.errors.EVMError as { errorMessages?: unknown } | undefined)?.errorMessages
    const found = {
      EVM: files.evm.EVM,
      EVMError: files.errors.EVMError,
      NobleBN254: files.precompiles.NobleBN254,
      Interpreter: files.interpreter.Interpreter,
      getOpcodesForHF: files.opcodes.getOpcodesForHF,
      paramsEVM: files.params.paramsEVM,
      opcodeHelpers: { subMemUsage, divCeil, trap, setLengthLeftStorage, updateSstoreGasEIP2200, accessStorageEIP2929, errorMessages },
    }
    const functions = [
      found.EVM,
      found.EVMError,
      found.NobleBN254,
      found.Interpreter,
      found.getOpcodesForHF,
      subMemUsage,
      divCeil,
      trap,
      setLengthLeftStorage,
      updateSstoreGasEIP2200,
      accessStorageEIP2929,
    ]
    const { paramsEVM } = found
    const usable = typeof paramsEVM === 'object' && paramsEVM !== null && typeof errorMessages === 'object' && errorMessages !== null && functions.every((value) => typeof value === 'function')
    return usable ? (found as EvmModules) : undefined
  } catch {
    return undefined
  }
}
