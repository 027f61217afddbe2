/**
 * Where @ethereumjs/evm's files come from (see ethereumjsModules.ts): `evm.js`,
 * `errors.js`, `interpreter.js`, `precompiles/index.js`, `opcodes/index.js`, `params.js`,
 * `opcodes/EIP2200.js` and `opcodes/EIP2929.js` of its ESM build.
 *
 * This module is what runs from source (tsx, vitest): the package's ESM entry is
 * resolved with `import.meta.resolve`, its version checked, and the sibling files
 * imported by URL, so that they are the same module instances the package's own files
 * import (also under vitest, which loads node_modules natively). `npm run build`
 * replaces this module with static imports of the same files (scripts/build.ts,
 * checking the version at build time), so that the bundle carries the EVM in one
 * chunk instead of loading ~120 files on the first transaction.
 */
import { readFile } from 'node:fs/promises'

/** The @ethereumjs/evm versions whose files were read and found usable and patchable as dualnet does. */
export const VERIFIED_VERSIONS = ['10.1.3']

/** The files, as their module namespaces (untyped: they are not the package's public API). */
export interface EvmFiles {
  evm: { EVM?: unknown }
  errors: { EVMError?: unknown }
  interpreter: { Interpreter?: unknown }
  precompiles: { NobleBN254?: unknown }
  opcodes: { getOpcodesForHF?: unknown; subMemUsage?: unknown; divCeil?: unknown; trap?: unknown; setLengthLeftStorage?: unknown }
  params: { paramsEVM?: unknown }
  eip2200: { updateSstoreGasEIP2200?: unknown }
  eip2929: { accessStorageEIP2929?: unknown }
}

/**
 * The files of the @ethereumjs/evm that `import '@ethereumjs/evm'` resolves to from
 * here, or `undefined` when its version is not in {@link VERIFIED_VERSIONS}. Rejects
 * when a file cannot be loaded.
 */
export async function importEvmFiles(): Promise<EvmFiles | undefined> {
  const entry = import.meta.resolve('@ethereumjs/evm')
  const pkg = JSON.parse(await readFile(new URL('../../package.json', entry), 'utf8')) as { name?: unknown; version?: unknown }
  if (pkg.name !== '@ethereumjs/evm' || typeof pkg.version !== 'string' || !VERIFIED_VERSIONS.includes(pkg.version)) {
    return undefined
  }
  const file = (name: string) => import(new URL(name, entry).href)
  const names = ['./evm.js', './errors.js', './interpreter.js', './precompiles/index.js', './opcodes/index.js', './params.js', './opcodes/EIP2200.js', './opcodes/EIP2929.js']
  const [evm, errors, interpreter, precompiles, opcodes, params, eip2200, eip2929] = await Promise.all(names.map(file))
  return { evm, errors, interpreter, precompiles, opcodes, params, eip2200, eip2929 }
}
