/**
 * The modules of @ethereumjs/evm that dualnet builds its EVM from and patches at run
 * time (README "Design notes"), loaded file by file rather than through the package's
 * index:
 * - `Interpreter` is neither exported nor deep-importable (the package's `exports`
 *   map), and the patches of src/evm/jumpAnalysisCache.ts, interpreterLoop.ts and
 *   frameResult.ts need its prototype;
 * - the index also loads `createEVM`'s default state manager, @ethereumjs/statemanager
 *   with its trie and binary-tree packages (about 45 ms and 50 modules on the first
 *   execution), which dualnet, bringing its own state manager, never uses.
 * The package's ESM entry is resolved with `import.meta.resolve`, its version checked,
 * and the sibling files imported by URL: the same URL is the same module instance the
 * package's own files import (also under vitest, which loads node_modules natively).
 */
import type { EVM, EVMError, NobleBN254 } from '@ethereumjs/evm'
import { readFile } from 'node:fs/promises'

/** The @ethereumjs/evm versions whose files were read and found usable and patchable as dualnet does. */
const VERIFIED_VERSIONS = ['10.1.3']

/** ethereumjs' `Interpreter` class, as far as its prototype goes. */
export interface InterpreterClass {
  prototype: object
}

/** The classes dualnet takes from @ethereumjs/evm's files. */
export interface EvmModules {
  EVM: typeof EVM
  EVMError: typeof EVMError
  NobleBN254: typeof NobleBN254
  Interpreter: InterpreterClass
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
    const entry = import.meta.resolve('@ethereumjs/evm')
    const pkg = JSON.parse(await readFile(new URL('../../package.json', entry), 'utf8')) as { name?: unknown; version?: unknown }
    if (pkg.name !== '@ethereumjs/evm' || typeof pkg.version !== 'string' || !VERIFIED_VERSIONS.includes(pkg.version)) {
      return undefined
    }
    const file = (name: string) => import(new URL(name, entry).href)
    const [evm, errors, interpreter, precompiles] = (await Promise.all([
      file('./evm.js'),
      file('./errors.js'),
      file('./interpreter.js'),
      file('./precompiles/index.js'),
    ])) as [{ EVM?: unknown }, { EVMError?: unknown }, { Interpreter?: unknown }, { NobleBN254?: unknown }]
    const found = { EVM: evm.EVM, EVMError: errors.EVMError, NobleBN254: precompiles.NobleBN254, Interpreter: interpreter.Interpreter }
    return Object.values(found).every((value) => typeof value === 'function') ? (found as EvmModules) : undefined
  } catch {
    return undefined
  }
}
