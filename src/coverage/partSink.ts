/**
 * Where a devnet's reports go when a test run merges them (issue 38: "the vitest helper
 * writes at the end of the run, merging its workers"; docs/coverage.md "Several
 * devnets in one run"). vitest runs test files in workers (threads or processes), each
 * with its own devnets; the run's global setup (src/vitest/reports.ts) makes a
 * directory and hands it to the workers, `dualnet/vitest` names it here, and then a
 * devnet's `coverage` and `gasReport` reporters, at close, leave their data in it as a
 * *part* file instead of writing their own reports. At the end of the run the global
 * setup merges the parts (src/vitest/mergeParts.ts) and writes each report once.
 *
 * Module state, one per worker module graph: set only by `dualnet/vitest`.
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { CoverageFileData, GasSamples } from '../core/rpcObjects.ts'

/** A devnet's coverage in a part file: istanbul's data by file, for the reports of `dir`. */
export interface CoveragePart {
  readonly kind: 'coverage'
  /** The `coverage` option's `dir`, absolute: where the merged reports go. */
  readonly dir: string
  /** The `coverage` option's artifacts, absolute: the merge reads the sources' texts from them for the HTML pages. */
  readonly artifacts: readonly string[]
  readonly coverage: Record<string, CoverageFileData>
}

/** A devnet's gas figures in a part file, for the report of `dir` and/or the printed table. */
export interface GasPart {
  readonly kind: 'gas'
  /** The `gasReport` option's `dir`, absolute; null: none (printed only). */
  readonly dir: string | null
  /** Whether the devnet would have printed its table (`print` not false). */
  readonly print: boolean
  readonly samples: GasSamples
}

/** One part file's content (`<uuid>.json` in the parts directory). */
export type ReportPart = CoveragePart | GasPart

let partsDir: string | undefined

/** Sends this worker's devnets' reports to `dir` as parts (undefined: each devnet writes its own again). */
export function sendReportPartsTo(dir: string | undefined): void {
  partsDir = dir
}

/** The parts directory of this worker, or undefined when its devnets write their own reports. */
export function reportPartsDir(): string | undefined {
  return partsDir
}

/**
 * Writes `part` into the parts directory under a new name; written beside and renamed,
 * so that the merge never reads half a file. Throws when no parts directory is set, or
 * the write fails.
 */
export function writeReportPart(part: ReportPart): void {
  if (partsDir === undefined) throw new Error('no report parts directory: sendReportPartsTo() was not called')
  mkdirSync(partsDir, { recursive: true })
  const file = path.join(partsDir, `${randomUUID()}.json`)
  writeFileSync(`${file}.tmp`, JSON.stringify(part))
  renameSync(`${file}.tmp`, file)
}
