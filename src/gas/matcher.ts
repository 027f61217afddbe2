/**
 * `expect(receipt).toMatchGasSnapshot(name?)`, the vitest matcher of gas snapshots
 * (./snapshots.ts), registered by `dualnet/vitest`. Loaded only with that entry: it
 * imports vitest.
 *
 * Without check mode each measurement is merged into the snapshot file at once (under
 * the file's lock: vitest's workers write one file); with it, a measurement that moved
 * by more than the tolerance, or whose name the file lacks, fails its test with the file's
 * gas and the new one, as `forge snapshot --check` reports them, and nothing is written.
 */
import { resolve } from 'node:path'
import { expect } from 'vitest'
import { changedGasSnapshots, describeGasSnapshotChange, gasOf } from './snapshots.ts'
import { readGasSnapshotFile, writeGasSnapshotFile } from './snapshotFile.ts'

/** How `toMatchGasSnapshot` records and checks. */
export interface GasSnapshotOptions {
  /** The snapshot file, relative to the working directory. Default `.gas-snapshot.json`. */
  readonly file?: string
  /**
   * Check mode: compare with the file and fail on a change, writing nothing. Default:
   * on when the environment sets `DUALNET_GAS_SNAPSHOT_CHECK` to `1` or `true` (for CI).
   */
  readonly check?: boolean
  /** In check mode, how far a measurement may move and pass, in percent of the file's gas (Foundry's `--tolerance`). Default 0. */
  readonly tolerance?: number
}

let configured: GasSnapshotOptions = {}

/**
 * Sets how `toMatchGasSnapshot` records and checks in this test file (call it in a
 * setup file to set it for every file). Throws RangeError for a negative or non-finite tolerance.
 */
export function configureGasSnapshots(options: GasSnapshotOptions): void {
  if (options.tolerance !== undefined && !(Number.isFinite(options.tolerance) && options.tolerance >= 0)) {
    throw new RangeError('gas snapshots: tolerance is a percentage, a finite number ≥ 0')
  }
  configured = { ...options }
}

function checkMode(): boolean {
  return configured.check ?? /^(1|true)$/i.test(process.env.DUALNET_GAS_SNAPSHOT_CHECK ?? '')
}

/** How many measurements each test has named by default, for the names of the second and later ones. */
const defaultNamesTaken = new Map<string, number>()

/** The test's full name for its first measurement; `<name> (2)`, `(3)`… for later ones. */
function defaultName(testName: string | undefined): string {
  if (testName === undefined) throw new Error('toMatchGasSnapshot() needs a name outside a test')
  const taken = (defaultNamesTaken.get(testName) ?? 0) + 1
  defaultNamesTaken.set(testName, taken)
  return taken === 1 ? testName : `${testName} (${taken})`
}

expect.extend({
  toMatchGasSnapshot(received: unknown, name?: string) {
    if (this.isNot) throw new Error('toMatchGasSnapshot cannot be negated')
    if (name !== undefined && (typeof name !== 'string' || name === '')) throw new TypeError('toMatchGasSnapshot(name): a non-empty string')
    const gas = gasOf(received)
    const key = name ?? defaultName(this.currentTestName)
    const file = resolve(configured.file ?? '.gas-snapshot.json')
    const measured = new Map([[key, gas]])
    if (!checkMode()) {
      writeGasSnapshotFile(file, measured)
      return { pass: true, message: () => `${key}: ${gas} recorded in ${file}` }
    }
    const [change] = changedGasSnapshots(readGasSnapshotFile(file), measured, { tolerance: configured.tolerance ?? 0 })
    return change === undefined
      ? { pass: true, message: () => `${key}: ${gas} matches ${file}` }
      : {
          pass: false,
          message: () => `gas snapshot differs from ${file}${configured.tolerance ? ` by more than ${configured.tolerance}%` : ''}: ${describeGasSnapshotChange(change)}`,
          actual: gas,
          expected: change.before,
        }
  },
})

declare module 'vitest' {
  interface Matchers<T = any> {
    /**
     * Records `received`'s gas (a receipt's `gasUsed`, or the gas as a bigint, number or
     * hex quantity) under `name` (default: the test's full name) in the gas snapshot
     * file; in check mode, fails when it moved from the file's by more than the tolerance
     * (see `configureGasSnapshots`).
     */
    toMatchGasSnapshot(name?: string): T
  }
}
