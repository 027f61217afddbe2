/**
 * `dualnet/vitest/reports`: a vitest global setup that writes the coverage and gas
 * reports of a whole run once, at its end, merging every test file's devnets
 * (docs/coverage.md "Several devnets in one run"). vitest runs files in workers, each
 * `useDevnet()` with a devnet of its own; without this setup each devnet with a
 * `coverage.dir` or `gasReport` writes its own reports over the others'.
 *
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['dualnet/vitest/reports'] } })
 * ```
 *
 * How (vitest 4's global setup, https://vitest.dev/config/globalsetup): `setup` makes a
 * temporary directory and gives it to the workers with `project.provide`;
 * `dualnet/vitest` reads it with `inject` and sends its devnets' reports there as parts
 * (src/coverage/partSink.ts); the teardown, in the main process after the last file,
 * merges them (./mergeParts.ts) and removes the directory.
 *
 * @module dualnet/vitest/reports
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { mergeReportParts } from './mergeParts.ts'

/** The key of the parts directory in vitest's provided context. */
export const REPORT_PARTS_KEY = 'dualnetReportParts'

declare module 'vitest' {
  interface ProvidedContext {
    /** The directory where `dualnet/vitest`'s devnets leave their reports for the run's merge. */
    dualnetReportParts: string
  }
}

/**
 * The global setup: provides the parts directory, and returns the teardown that
 * merges and writes the reports (the gas table printed on stdout), then removes the
 * directory. A merge that fails (a report not writable, artifacts unreadable) fails
 * the run's teardown with its reason.
 */
export default function setup(project: Pick<TestProject, 'provide'>): () => Promise<void> {
  const partsDir = mkdtempSync(path.join(tmpdir(), 'dualnet-report-parts-'))
  project.provide(REPORT_PARTS_KEY, partsDir)
  return async () => {
    try {
      await mergeReportParts(partsDir, (text) => console.log(text.trimEnd()))
    } finally {
      rmSync(partsDir, { recursive: true, force: true })
    }
  }
}
