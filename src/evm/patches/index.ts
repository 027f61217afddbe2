/**
 * The one gate of dualnet's run-time patches of @ethereumjs/evm (docs/design.md
 * "@ethereumjs/evm patches"): the synchronous interpreter loop (interpreterLoop.ts),
 * the frame results without spreads (frameResult.ts), the per-code jump analysis
 * (jumpAnalysisCache.ts), the logic functions of the word opcodes (wordOpcodes.ts), the
 * synchronous gas functions of the memory opcodes (memoryGas.ts), SLOAD and SSTORE over the
 * state manager's synchronous reads (storageOpcodes.ts), the activated-EIP lookup of the
 * EVM's Common (activatedEips.ts) and the warm keys of its journal (warmJournal.ts). All
 * eight are for speed only: an EVM without them computes the same results
 * (test/evm-patches-switch.test.ts runs one workload both ways and compares).
 *
 * They are applied all or none:
 * - the installed @ethereumjs/evm is checked once against the verified versions
 *   (ethereumjsFiles.ts `VERIFIED_VERSIONS`); another version gets none, with a single
 *   warning, and runs as ethereumjs ships it. A patch written for another version's
 *   internals could compute different gas without failing, which is worse than being
 *   slower; unpatched ethereumjs is what the patches are held equal to.
 * - on a verified version, a patch that then does not find the shape it was written for
 *   throws: the verification was wrong, and the devnet does not start half-patched.
 * - `DUALNET_EVM_PATCHES=0` in the environment (read when the executor is made), or the
 *   executor's `evmPatches: false`, turns them all off for that executor's EVMs
 *   (switch.ts). The prototype patches are process-wide once installed, so an EVM built
 *   with them off is marked, and every patched method defers to ethereumjs' own on it.
 *
 * Not patches and not gated: the SELFDESTRUCT payout log (transferLogs.ts) is an
 * EVM option ethereumjs supports (`customOpcodes`); pacing (pacer.ts) rides on the
 * patched loop when patched and on the `step` event otherwise.
 */
import type { EVM } from '@ethereumjs/evm'
import { loadEvmModules, type EvmModules } from '../ethereumjsModules.ts'
import { installActivatedEips } from './activatedEips.ts'
import { installFrameResultPatch } from './frameResult.ts'
import { installInterpreterLoop } from './interpreterLoop.ts'
import { installJumpAnalysisCache } from './jumpAnalysisCache.ts'
import { installMemoryGas } from './memoryGas.ts'
import { installStorageOpcodes } from './storageOpcodes.ts'
import { EVM_PATCHES_ENV } from './switch.ts'
import { installWarmJournal } from './warmJournal.ts'
import { installWordOpcodes } from './wordOpcodes.ts'

export { EVM_PATCHES_ENV, evmPatchesWanted, isUnpatched, markUnpatched } from './switch.ts'

/** What the errors below advise. */
const OFF = `set ${EVM_PATCHES_ENV}=0 to run unpatched`

let installing: Promise<EvmModules | undefined> | undefined

/**
 * Installs the process-wide patches once, and resolves to the @ethereumjs/evm classes
 * they were installed into; `undefined` (after one warning) when the installed version
 * is not a verified one. Throws when a verified version does not take a patch.
 */
export function installEvmPatches(): Promise<EvmModules | undefined> {
  installing ??= install()
  return installing
}

async function install(): Promise<EvmModules | undefined> {
  const modules = await loadEvmModules()
  if (modules === undefined) {
    process.emitWarning('dualnet: this @ethereumjs/evm is not a version its speed patches were verified against; the EVM runs unpatched (same results, slower).', {
      code: 'DUALNET_EVM_UNVERIFIED',
    })
    return undefined
  }
  const installed = await Promise.all([installJumpAnalysisCache(), installInterpreterLoop(), installFrameResultPatch()])
  if (installed.includes(false)) throw new Error(`dualnet: a run-time patch of @ethereumjs/evm did not find the shape it was written for, on a version listed as verified; ${OFF}`)
  return modules
}

/**
 * The per-EVM patches (the word opcodes' logic functions, the memory opcodes' gas
 * functions and the synchronous SLOAD and SSTORE in `evm`'s own opcode table, the table lookup of its Common's activated
 * EIPs, its journal's warm keys), over the `modules` {@link installEvmPatches} resolved
 * to; throws where one does not apply, as {@link installEvmPatches}.
 */
export function patchEvm(evm: EVM, modules: EvmModules): void {
  if (!installWordOpcodes(evm) && !evm.common.isActivatedEIP(8037))
    throw new Error(`dualnet: the word-opcode patch (KECCAK256, CALLDATALOAD, MLOAD, MSTORE, SLOAD, SSTORE, LOG) did not find @ethereumjs/evm's opcode table; ${OFF}`)
  if (!installMemoryGas(evm, modules.opcodeHelpers)) throw new Error(`dualnet: the memory gas patch did not find @ethereumjs/evm's opcode table; ${OFF}`)
  // After the word opcodes: SLOAD's and SSTORE's functions are replaced again where the state answers synchronously.
  if (!installStorageOpcodes(evm as never, modules.opcodeHelpers)) throw new Error(`dualnet: the SLOAD/SSTORE patch did not find @ethereumjs/evm's opcode table; ${OFF}`)
  if (!installActivatedEips(evm.common as never)) throw new Error(`dualnet: the activated-EIPs patch did not find @ethereumjs/common's EIP list; ${OFF}`)
  if (!installWarmJournal(evm.journal as never)) throw new Error(`dualnet: the warm-journal patch did not find @ethereumjs/evm's Journal; ${OFF}`)
}
