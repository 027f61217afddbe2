/**
 * Finds @ethereumjs/evm's `Interpreter` class, which the package neither exports nor
 * lets anyone deep-import (its `exports` map), so that dualnet can patch its
 * prototype at run time (src/evm/jumpAnalysisCache.ts, src/evm/interpreterLoop.ts;
 * README "Design notes"). It resolves the package's ESM entry with
 * `import.meta.resolve`, checks the installed version, and imports the sibling
 * `interpreter.js` by URL: the same URL is the same module instance `evm.js` imports
 * (also under vitest, which loads node_modules natively).
 */
import { readFile } from 'node:fs/promises'

/** The @ethereumjs/evm versions whose interpreter was read and found patchable as dualnet does. */
const VERIFIED_VERSIONS = ['10.1.3']

/** ethereumjs' `Interpreter` class, as far as its prototype goes. */
export interface InterpreterClass {
  prototype: object
}

let loading: Promise<InterpreterClass | undefined> | undefined

/**
 * The `Interpreter` class of the @ethereumjs/evm that `import '@ethereumjs/evm'`
 * resolves to from here, or `undefined` when that package is not a verified version,
 * has no ESM `interpreter.js` exporting `Interpreter`, or its module instance cannot
 * be proved to be the one `import` gives. Memoised; never throws.
 */
export function loadInterpreterClass(): Promise<InterpreterClass | undefined> {
  loading ??= load()
  return loading
}

async function load(): Promise<InterpreterClass | undefined> {
  try {
    const entry = import.meta.resolve('@ethereumjs/evm')
    const pkg = JSON.parse(await readFile(new URL('../../package.json', entry), 'utf8')) as { name?: unknown; version?: unknown }
    if (pkg.name !== '@ethereumjs/evm' || typeof pkg.version !== 'string' || !VERIFIED_VERSIONS.includes(pkg.version)) {
      return undefined
    }
    const [byUrl, bare, interpreterModule] = (await Promise.all([
      import(entry),
      import('@ethereumjs/evm'),
      import(new URL('./interpreter.js', entry).href),
    ])) as [{ EVM?: unknown }, { EVM?: unknown }, { Interpreter?: unknown }]
    // Same EVM class by URL and by bare specifier: this loader maps the URL to the
    // module instance everyone imports, so interpreter.js by URL is evm.js's too.
    if (byUrl.EVM === undefined || byUrl.EVM !== bare.EVM) return undefined
    const Interpreter = interpreterModule.Interpreter
    return typeof Interpreter === 'function' ? (Interpreter as InterpreterClass) : undefined
  } catch {
    return undefined
  }
}
