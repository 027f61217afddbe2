/**
 * The switch of the run-time patches of @ethereumjs/evm (patches/index.ts): whether the
 * EVMs built now get them, and the mark of an EVM built without them. The prototype
 * patches are process-wide once installed, so each patched method asks the EVM it runs
 * on whether to defer to ethereumjs' own method. Light on purpose: the executor reads
 * it at start-up, before the EVM is loaded.
 */

/** The environment variable that turns the patches off: `0`, `false` or `off`. */
export const EVM_PATCHES_ENV = 'DUALNET_EVM_PATCHES'

const UNPATCHED = Symbol.for('dualnet.evmPatches.off')

/** Whether EVMs built now get the patches: `option` if given, else unless {@link EVM_PATCHES_ENV} says off. */
export function evmPatchesWanted(option?: boolean): boolean {
  if (option !== undefined) return option
  const value = process.env[EVM_PATCHES_ENV]?.trim().toLowerCase()
  return !(value === '0' || value === 'false' || value === 'off')
}

/** Marks `evm` as built with the patches off: every patched method defers to ethereumjs' own on it. */
export function markUnpatched(evm: object): void {
  Object.defineProperty(evm, UNPATCHED, { value: true })
}

/** Whether `evm` was built with the patches off ({@link markUnpatched}). */
export function isUnpatched(evm: object): boolean {
  return (evm as { [UNPATCHED]?: boolean })[UNPATCHED] === true
}
