/**
 * The end of a test run that merges its devnets' reports (src/coverage/partSink.ts): reads every
 * part file the workers left, and writes each report once: per coverage `dir`, one
 * LCOV / `coverage-final.json` / HTML of all its parts' coverage (istanbul-lib-coverage's
 * merge: counts added per statement, function and branch arm); per gas report `dir`,
 * one `gas-report.json` / `.md` with each figure recomputed from all samples, and the
 * table printed once when any part would have printed it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { CoverageFileData, GasSamples } from '../core/rpcObjects.ts'
import type { CoveragePart, GasPart, ReportPart } from '../coverage/partSink.ts'
import { artifactSourceTexts, writeReports } from '../coverage/reporter.ts'
import { gasReportMarkdown, gasReportOf, type GasReport, writeGasReport } from '../gas/report.ts'

/** What {@link mergeReportParts} wrote: the directories, and the gas report printed (if any). */
export interface MergedReports {
  /** The coverage `dir`s written, each once. */
  readonly coverageDirs: readonly string[]
  /** The gas report `dir`s written, each once. */
  readonly gasDirs: readonly string[]
  /** The gas report of every part that prints, merged; null when none prints. */
  readonly printed: GasReport | null
}

/** The parts in `dir` (`*.json`, as src/coverage/partSink.ts writes them); throws an Error naming a file that is not one. */
export function readReportParts(dir: string): ReportPart[] {
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
  return names.sort().map((name) => {
    const part = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Partial<ReportPart> | null
    if (part?.kind !== 'coverage' && part?.kind !== 'gas') throw new Error(`${path.join(dir, name)} is not a dualnet report part`)
    return part as ReportPart
  })
}

/** `parts` grouped by `key`, in their order. */
function groupBy<T, K>(parts: readonly T[], key: (part: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const part of parts) groups.set(key(part), [...(groups.get(key(part)) ?? []), part])
  return groups
}

/**
 * Merges the parts in `partsDir` and writes the reports (see the module's comment);
 * `print` receives the merged gas table. A coverage source's HTML page shows its text
 * from the parts' artifacts, or from the disk. Throws when a part cannot be read or a
 * report not written.
 */
export async function mergeReportParts(partsDir: string, print: (text: string) => void): Promise<MergedReports> {
  const parts = readReportParts(partsDir)
  const coverageParts = parts.filter((p): p is CoveragePart => p.kind === 'coverage')
  const gasParts = parts.filter((p): p is GasPart => p.kind === 'gas')
  const coverageDirs: string[] = []
  if (coverageParts.length > 0) {
    const { default: libCoverage } = await import('istanbul-lib-coverage')
    for (const [dir, group] of groupBy(coverageParts, (p) => p.dir)) {
      const map = libCoverage.createCoverageMap({})
      for (const part of group) map.merge(part.coverage as never)
      const texts = await artifactSourceTexts([...new Set(group.flatMap((p) => p.artifacts))])
      await writeReports(map.toJSON() as Record<string, CoverageFileData>, dir, (file) => texts.get(file))
      coverageDirs.push(dir)
    }
  }
  const gasDirs: string[] = []
  for (const [dir, group] of groupBy(gasParts, (p) => p.dir)) {
    if (dir === null) continue
    await writeGasReport(gasReportOf(group.map((p) => p.samples)), dir)
    gasDirs.push(dir)
  }
  const printing: GasSamples[] = gasParts.filter((p) => p.print).map((p) => p.samples)
  const printed = printing.length === 0 ? null : gasReportOf(printing)
  if (printed !== null) print(gasReportMarkdown(printed))
  return { coverageDirs, gasDirs, printed }
}
