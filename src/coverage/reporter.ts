/**
 * The devnet's coverage reports (docs/coverage.md): what the EVM recorded
 * (evm/coverage.ts, read through its `CoverageSource`), added up per code, matched
 * to the compiled contracts of the artifacts and mapped to their sources, as
 * istanbul's coverage data; written as LCOV, istanbul JSON and HTML through
 * istanbul's own libraries (istanbul-lib-coverage, -report, -reports), loaded only
 * when a report is made.
 *
 * The artifacts are read when a report is made, not when the devnet starts: a
 * project is often compiled after its devnet started (a CLI left running).
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { CoverageFileData, DualnetCoverage } from '../core/rpcObjects.ts'
import type { CoverageSource } from '../evm/coverage.ts'
import { loadCompilations, type CompiledBytecode, type SourceUnit } from './buildInfo.ts'
import { fileCoverages, type BytecodeRuns } from './fileCoverage.ts'
import { BytecodeMatcher } from './match.ts'
import { reportPartsDir, writeReportPart } from './partSink.ts'

/**
 * One code's counts added up over its runs, sparse (only the instructions that ran:
 * init code holds the whole runtime code as data, and each set of constructor
 * arguments is a code of its own).
 */
interface CodeTotals {
  readonly code: Uint8Array
  readonly creation: boolean
  /** By program counter: [executions, jumps]. */
  readonly counts: Map<number, [number, number]>
}

/** The files {@link CoverageReporter.write} writes in its directory. */
export const REPORT_FILES = { lcov: 'lcov.info', json: 'coverage-final.json', html: 'index.html' } as const

/** istanbul's coverage data by file (what `coverage-final.json` holds), with the codes that ran but match no contract of the artifacts (by code hash; init code marked `creation`). */
export type CoverageTake = DualnetCoverage

/** Adds up the coverage of one devnet and makes its reports. */
export class CoverageReporter {
  readonly #source: CoverageSource
  readonly #artifacts: readonly string[]
  readonly #dir: string | undefined
  #totals = new Map<string, CodeTotals & { codeHash: `0x${string}` }>()

  /**
   * `artifacts`: paths as the `coverage` option's (default: the current directory, a
   * Hardhat or Foundry project); `dir`: where {@link close} writes the reports (none: it writes nothing).
   */
  constructor(source: CoverageSource, artifacts: string | readonly string[] | undefined, dir?: string) {
    this.#source = source
    // Many deployments: their init code moves into the sparse totals before it piles up.
    source.onFull = () => this.#drain()
    this.#artifacts = artifacts === undefined ? [process.cwd()] : typeof artifacts === 'string' ? [artifacts] : artifacts
    this.#dir = dir
  }

  /**
   * At the devnet's close: writes the reports into the `dir` given, if any (see
   * {@link write}); in a test run that merges its devnets' reports (./partSink.ts),
   * leaves its coverage as a part for that merge instead. A failure to write does not
   * fail the close: it is a process warning (`DUALNET_COVERAGE`) naming the reason.
   */
  async close(): Promise<void> {
    if (this.#dir === undefined) return
    try {
      if (reportPartsDir() === undefined) await this.write(this.#dir, true)
      else {
        const artifacts = this.#artifacts.map((p) => path.resolve(p))
        writeReportPart({ kind: 'coverage', dir: path.resolve(this.#dir), artifacts, coverage: (await this.take(true)).coverage })
      }
    } catch (err) {
      process.emitWarning(`dualnet: coverage reports not written to ${this.#dir}: ${(err as Error).message}`, { code: 'DUALNET_COVERAGE' })
    }
  }

  /** Moves what the EVM recorded since the last call into the totals. */
  #drain(): void {
    for (const run of this.#source.take()) {
      const key = `${run.creation ? 'c' : 'r'}${run.codeHash}`
      let totals = this.#totals.get(key)
      if (totals === undefined) {
        totals = { codeHash: run.codeHash, code: run.code, creation: run.creation, counts: new Map() }
        this.#totals.set(key, totals)
      }
      for (let pc = 0; pc < run.counts.length; pc++) {
        if (run.counts[pc] === 0) continue
        const sum = totals.counts.get(pc)
        if (sum === undefined) totals.counts.set(pc, [run.counts[pc]!, run.jumps[pc]!])
        else {
          sum[0] += run.counts[pc]!
          sum[1] += run.jumps[pc]!
        }
      }
    }
  }

  /**
   * The coverage since the start (or the last take that reset), mapped to the
   * artifacts' sources; `reset` starts the totals afresh. Throws CoverageError
   * (buildInfo.ts) when the artifacts cannot be read; the totals are then kept.
   */
  async take(reset: boolean): Promise<CoverageTake> {
    return (await this.#take(reset)).taken
  }

  async #take(reset: boolean): Promise<{ taken: CoverageTake; texts: Map<string, string> }> {
    this.#drain()
    const { contracts, sources } = await loadCompilations(this.#artifacts)
    const matcher = new BytecodeMatcher(contracts)
    const runs = new Map<CompiledBytecode, BytecodeRuns>()
    const unmatched: { codeHash: `0x${string}`; creation: boolean }[] = []
    for (const totals of this.#totals.values()) {
      const match = matcher.match(totals.code, totals.creation)
      if (match === undefined) {
        unmatched.push({ codeHash: totals.codeHash, creation: totals.creation })
        continue
      }
      let run = runs.get(match.bytecode)
      if (run === undefined) {
        const length = match.bytecode.object.length
        run = { contract: match.contract, bytecode: match.bytecode, counts: new Float64Array(length), jumps: new Float64Array(length) }
        runs.set(match.bytecode, run)
      }
      for (const [pc, [count, jumps]] of totals.counts) {
        // Init code runs past its bytecode into the constructor's arguments, which are data.
        if (pc >= run.counts.length) continue
        run.counts[pc]! += count
        run.jumps[pc]! += jumps
      }
    }
    if (reset) this.#totals = new Map()
    return { taken: { coverage: fileCoverages(runs.values(), sources, reportedPath), unmatched }, texts: sourceTexts(sources.values()) }
  }

  /**
   * Writes the reports of {@link take} into `dir` (made if absent): `lcov.info`,
   * `coverage-final.json` and the HTML report (`index.html` and one page per file);
   * resolves to the coverage written.
   */
  async write(dir: string, reset: boolean): Promise<CoverageTake> {
    const { taken, texts } = await this.#take(reset)
    await writeReports(taken.coverage, dir, (file) => texts.get(file))
    return taken
  }
}

/** The texts of `units` by their names in the reports (the HTML pages show them). */
function sourceTexts(units: Iterable<SourceUnit>): Map<string, string> {
  const texts = new Map<string, string>()
  for (const unit of units) texts.set(reportedPath(unit), unit.content)
  return texts
}

/**
 * The texts of the sources in `artifacts` (paths as the `coverage` option's), by
 * their names in the reports. Throws CoverageError (buildInfo.ts) when the artifacts
 * cannot be read.
 */
export async function artifactSourceTexts(artifacts: readonly string[]): Promise<Map<string, string>> {
  return sourceTexts((await loadCompilations(artifacts)).sources.values())
}

/** Hardhat 3's source names put `project/` before a project's own files (`project/contracts/Token.sol`); npm packages are `npm/<name>@<version>/...`. */
const HARDHAT3_PROJECT = 'project/'

/**
 * A source's name in the reports: its file on disk when there is one (genhtml and
 * editors open it), else its path in the compilation. A Hardhat 3 source name
 * (`project/contracts/Token.sol`) is looked for without its `project/` prefix, under
 * the project root, where Hardhat 3 read it.
 */
function reportedPath(unit: SourceUnit): string {
  const candidates = [path.resolve(unit.root, unit.path), path.resolve(unit.path)]
  if (unit.path.startsWith(HARDHAT3_PROJECT)) candidates.push(path.resolve(unit.root, unit.path.slice(HARDHAT3_PROJECT.length)))
  for (const candidate of candidates) if (existsSync(candidate)) return candidate
  return unit.path
}

/**
 * Writes `coverage` into `dir` as LCOV, istanbul JSON and HTML with istanbul's
 * reporters; the HTML pages show the sources' texts from `text` (the compiler's
 * input), or from the disk for a file it does not know.
 */
export async function writeReports(coverage: Record<string, CoverageFileData>, dir: string, text: (file: string) => string | undefined = () => undefined): Promise<void> {
  const [{ default: libCoverage }, { default: libReport }, { default: reports }] = await Promise.all([import('istanbul-lib-coverage'), import('istanbul-lib-report'), import('istanbul-reports')])
  // Our data is istanbul's FileCoverageData by shape (core/rpcObjects.ts CoverageFileData).
  const coverageMap = libCoverage.createCoverageMap(coverage as never)
  const context = libReport.createContext({ dir, coverageMap, sourceFinder: (file) => text(file) ?? readFileSync(file, 'utf8') })
  for (const name of ['lcovonly', 'json', 'html'] as const) {
    reports.create(name, name === 'lcovonly' ? { file: REPORT_FILES.lcov } : name === 'json' ? { file: REPORT_FILES.json } : {}).execute(context)
  }
}
