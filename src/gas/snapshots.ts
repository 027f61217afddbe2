/**
 * Gas snapshots: named gas measurements compared with the ones a snapshot file holds,
 * as Foundry's `forge snapshot --check` and `vm.snapshotGas*` do for Solidity tests, for
 * any test runner that talks to a devnet.
 *
 * A snapshot file is a JSON object from a measurement's name to its gas, a decimal
 * string (Foundry's `snapshots/<group>.json` shape), with its keys sorted, so that a diff
 * of it in review shows what changed. Pure: the file's reading and writing is
 * ./snapshotFile.ts.
 */
import type { GasReport } from '../core/rpcObjects.ts'
import { DualnetError } from '../errors/base.ts'

/** What a snapshot file holds: a measurement's name to its gas, a decimal string. */
export type GasSnapshotEntries = Record<string, string>

/** How measurements are compared with the file's. */
export interface GasSnapshotCheck {
  /**
   * How far a measurement may move from the file's and still pass, in percent of the
   * file's (Foundry's `--tolerance`). Default 0: any change fails.
   */
  readonly tolerance?: number
}

/** One measurement that does not pass the check. */
export interface GasSnapshotChange {
  readonly name: string
  /** The file's gas; undefined when the file has no entry of this name. */
  readonly before: bigint | undefined
  readonly after: bigint
}

/** Whether `after` passes against `before` within `tolerance` percent of `before`. */
function within(before: bigint, after: bigint, tolerance: number): boolean {
  const moved = after > before ? after - before : before - after
  // In hundredths of a percent, so that a tolerance such as 0.5 compares in integers.
  return moved * 10_000n <= before * BigInt(Math.round(tolerance * 100))
}

/**
 * The measurements of `measured` that do not pass against `file`: a gas that moved by
 * more than the tolerance, or a name the file does not have (the file must be updated
 * to take it, as a new test needs `forge snapshot`). Entries of the file that were not
 * measured pass: a run of some tests checks those.
 */
export function changedGasSnapshots(file: GasSnapshotEntries, measured: ReadonlyMap<string, bigint>, check: GasSnapshotCheck = {}): GasSnapshotChange[] {
  const tolerance = check.tolerance ?? 0
  const changes: GasSnapshotChange[] = []
  for (const [name, after] of measured) {
    const recorded = file[name]
    const before = recorded === undefined ? undefined : BigInt(recorded)
    if (before === undefined || !within(before, after, tolerance)) changes.push({ name, before, after })
  }
  return changes
}

/** `file` with `measured` written over it, keys sorted. */
export function mergeGasSnapshots(file: GasSnapshotEntries, measured: ReadonlyMap<string, bigint>): GasSnapshotEntries {
  const merged = new Map(Object.entries(file))
  for (const [name, gas] of measured) merged.set(name, gas.toString())
  return Object.fromEntries([...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** One change as a line: `name: 51234 → 51300 (+66, +0.13%)`, or `name: 51234 (not in the snapshot file)`. */
export function describeGasSnapshotChange({ name, before, after }: GasSnapshotChange): string {
  if (before === undefined) return `${name}: ${after} (not in the snapshot file)`
  const delta = after - before
  const percent = before === 0n ? '' : `, ${delta >= 0n ? '+' : ''}${((Number(delta) / Number(before)) * 100).toFixed(2)}%`
  return `${name}: ${before} → ${after} (${delta >= 0n ? '+' : ''}${delta}${percent})`
}

/**
 * Measurements that do not match the snapshot file in check mode: the message names
 * how many and the file, `changes` lists each, `details` has one line each.
 */
export class GasSnapshotMismatchError extends DualnetError {
  override name = 'GasSnapshotMismatchError'
  readonly dualnetCode = 'DUALNET_ERR_GAS_SNAPSHOT_MISMATCH'
  readonly changes: readonly GasSnapshotChange[]

  constructor(file: string, changes: readonly GasSnapshotChange[], tolerance: number) {
    super(`${changes.length} gas snapshot${changes.length === 1 ? ' differs' : 's differ'} from ${file}${tolerance > 0 ? ` by more than ${tolerance}%` : ''}`, {
      details: changes.map(describeGasSnapshotChange).join('\n'),
    })
    this.changes = changes
  }
}

/**
 * The gas of a measurement: a receipt's `gasUsed` (viem's and ethers' bigint, a raw
 * JSON-RPC receipt's hex quantity), or the gas itself (a bigint, a safe integer, a
 * hex quantity). Throws TypeError for anything else.
 */
export function gasOf(measured: unknown): bigint {
  const value = typeof measured === 'object' && measured !== null && 'gasUsed' in measured ? (measured as { gasUsed: unknown }).gasUsed : measured
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value)
  throw new TypeError('a gas snapshot takes a receipt (with gasUsed), a bigint, a non-negative safe integer or a hex quantity')
}

/**
 * The gas report's figures as gas snapshot entries (the option `gasReport` beside
 * `gasSnapshot`): per contract and function the median gas of the transactions that
 * entered it (`<contract>:<function>`) and of the internal calls to it
 * (`<contract>:<function> (internal)`), and per contract the median deployment gas
 * (`<contract>:(deployment)`). `<contract>` is the report's `source:Name`. A median, as
 * the report's middle figure, moves only when the function's usual cost moves.
 */
export function gasReportSnapshots(report: GasReport): Map<string, bigint> {
  const entries = new Map<string, bigint>()
  for (const contract of report.contracts) {
    for (const method of contract.methods) {
      const name = `${contract.contract}:${method.method === '' ? '(fallback/receive)' : method.method}`
      if (method.transactions !== null) entries.set(name, BigInt(method.transactions.median))
      if (method.internal !== null) entries.set(`${name} (internal)`, BigInt(method.internal.median))
    }
    if (contract.deployments !== null) entries.set(`${contract.contract}:(deployment)`, BigInt(contract.deployments.median))
  }
  return entries
}
