/**
 * The gas report (issue 38, item 2; docs/coverage.md "Gas report"): per contract and
 * function, the calls of the mined transactions that entered it and of the internal
 * calls to it, with min / median / max gas; per contract its deployments' gas and its
 * code size. As hardhat-gas-reporter reports them: transactions only (no eth_call or
 * estimate), successful ones only, a transaction's gas being its receipt's gas used,
 * an internal call's the gas its frame spent.
 *
 * Codes are named through the artifacts (src/coverage/buildInfo.ts, matched with
 * immutables and metadata masked); a code no artifact matches is named by its hash.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { CodeGasUsage, GasUsageSource } from '../evm/gasUsage.ts'
import type { GasFigures, GasReport, GasReportContract, GasSamples, GasSamplesContract } from '../core/rpcObjects.ts'
import { loadCompilations } from '../coverage/buildInfo.ts'
import { BytecodeMatcher } from '../coverage/match.ts'
import { reportPartsDir, writeReportPart } from '../coverage/partSink.ts'

export type { GasFigures, GasReport, GasReportContract, GasReportMethod } from '../core/rpcObjects.ts'

/** The files {@link GasReporter.close} writes into its directory. */
export const GAS_REPORT_FILES = { json: 'gas-report.json', markdown: 'gas-report.md' } as const

/** Figures of `gas`, or null for none. */
export function gasFigures(gas: readonly bigint[]): GasFigures | null {
  if (gas.length === 0) return null
  const sorted = [...gas].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const mid = sorted.length >> 1
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2n
  return { calls: sorted.length, min: String(sorted[0]), median: String(median), max: String(sorted[sorted.length - 1]) }
}

/** Adds up the gas usage of one devnet and makes its report. */
export class GasReporter {
  readonly #source: GasUsageSource
  readonly #artifacts: readonly string[]
  /** Everything taken so far, by code hash. */
  readonly #totals = new Map<string, { code: Uint8Array; transactions: Map<string, bigint[]>; internal: Map<string, bigint[]>; deployments: bigint[] }>()

  readonly #dir: string | undefined
  readonly #print: ((text: string) => void) | undefined

  /**
   * `artifacts`: as the `coverage` option's (default: the current directory); `dir`:
   * where {@link close} writes `gas-report.json` and `gas-report.md`; `print`: where it
   * prints the markdown table (none: not printed).
   */
  constructor(source: GasUsageSource, artifacts: string | readonly string[] | undefined, dir?: string, print?: (text: string) => void) {
    this.#source = source
    this.#artifacts = artifacts === undefined ? [process.cwd()] : typeof artifacts === 'string' ? [artifacts] : artifacts
    this.#dir = dir
    this.#print = print
  }

  /**
   * At the devnet's close: prints the table and writes the files as the constructor
   * says, and resolves to the report (made, with nothing to print or write, only when
   * `wanted`: the gas snapshots take it). In a test run that merges its devnets'
   * reports (src/coverage/partSink.ts) it leaves its figures as a part for that merge
   * instead of printing and writing. A failure is a process warning
   * (`DUALNET_GAS_REPORT`), not a failed close, and resolves to undefined.
   */
  async close(wanted = false): Promise<GasReport | undefined> {
    if (this.#dir === undefined && this.#print === undefined && !wanted) return undefined
    try {
      const samples = await this.samples()
      const report = gasReportOf([samples])
      if (reportPartsDir() !== undefined && (this.#dir !== undefined || this.#print !== undefined)) {
        writeReportPart({ kind: 'gas', dir: this.#dir === undefined ? null : path.resolve(this.#dir), print: this.#print !== undefined, samples })
        return report
      }
      const markdown = gasReportMarkdown(report)
      if (this.#dir !== undefined) await writeGasReport(report, this.#dir)
      this.#print?.(markdown)
      return report
    } catch (err) {
      process.emitWarning(`dualnet: gas report not made: ${(err as Error).message}`, { code: 'DUALNET_GAS_REPORT' })
      return undefined
    }
  }

  #drain(): void {
    for (const usage of this.#source.take()) add(this.#totals, usage)
  }

  /** The report of every transaction since the start. Throws CoverageError (buildInfo.ts) when the artifacts cannot be read. */
  async report(): Promise<GasReport> {
    return gasReportOf([await this.samples()])
  }

  /**
   * Every gas figure since the start, named through the artifacts: what {@link report}
   * sums up, kept whole so that reports of several devnets merge with their medians
   * recomputed (src/vitest/mergeParts.ts). Throws CoverageError (buildInfo.ts) when the
   * artifacts cannot be read.
   */
  async samples(): Promise<GasSamples> {
    this.#drain()
    const matcher = new BytecodeMatcher((await loadCompilations(this.#artifacts)).contracts)
    const contracts: GasSamplesContract[] = []
    for (const [codeHash, totals] of this.#totals) {
      const match = matcher.match(totals.code, false)
      const decimal = (gas: readonly bigint[] | undefined) => (gas ?? []).map(String)
      const selectors = new Set([...totals.transactions.keys(), ...totals.internal.keys()])
      contracts.push({
        contract: match === undefined ? codeHash : `${match.contract.sourcePath}:${match.contract.name}`,
        size: totals.code.length,
        methods: [...selectors].map((selector) => ({
          method: match?.contract.methods.get(selector) ?? selector,
          selector,
          transactions: decimal(totals.transactions.get(selector)),
          internal: decimal(totals.internal.get(selector)),
        })),
        deployments: decimal(totals.deployments),
      })
    }
    return { contracts }
  }
}

/**
 * The report of `parts` together (one devnet's, or several workers'): a contract is one
 * row per name and code size, a function one per selector, and each figure is computed
 * from all of their samples (a median of medians would not be the median). Sorted by
 * contract, then by method.
 */
export function gasReportOf(parts: readonly GasSamples[]): GasReport {
  const byContract = new Map<string, { contract: string; size: number; deployments: bigint[]; methods: Map<string, { method: string; transactions: bigint[]; internal: bigint[] }> }>()
  for (const part of parts) {
    for (const c of part.contracts) {
      const key = `${c.contract}\n${c.size}`
      let into = byContract.get(key)
      if (into === undefined) byContract.set(key, (into = { contract: c.contract, size: c.size, deployments: [], methods: new Map() }))
      into.deployments.push(...c.deployments.map(BigInt))
      for (const m of c.methods) {
        let method = into.methods.get(m.selector)
        if (method === undefined) into.methods.set(m.selector, (method = { method: m.method, transactions: [], internal: [] }))
        method.transactions.push(...m.transactions.map(BigInt))
        method.internal.push(...m.internal.map(BigInt))
      }
    }
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  const contracts: GasReportContract[] = [...byContract.values()].map((c) => ({
    contract: c.contract,
    size: c.size,
    methods: [...c.methods]
      .sort(([a], [b]) => order(a, b))
      .map(([selector, m]) => ({ method: m.method, selector, transactions: gasFigures(m.transactions), internal: gasFigures(m.internal) }))
      .sort((a, b) => order(a.method, b.method)),
    deployments: gasFigures(c.deployments),
  }))
  contracts.sort((a, b) => order(a.contract, b.contract))
  return { contracts }
}

function add(totals: Map<string, { code: Uint8Array; transactions: Map<string, bigint[]>; internal: Map<string, bigint[]>; deployments: bigint[] }>, usage: CodeGasUsage): void {
  let entry = totals.get(usage.codeHash)
  if (entry === undefined) totals.set(usage.codeHash, (entry = { code: usage.code, transactions: new Map(), internal: new Map(), deployments: [] }))
  for (const [into, from] of [
    [entry.transactions, usage.transactions],
    [entry.internal, usage.internal],
  ] as const) {
    for (const [selector, gas] of from) into.set(selector, [...(into.get(selector) ?? []), ...gas])
  }
  entry.deployments.push(...usage.deployments)
}

/** Writes `report` into `dir` (made if absent) as `gas-report.json` and `gas-report.md` ({@link GAS_REPORT_FILES}). */
export async function writeGasReport(report: GasReport, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(path.join(dir, GAS_REPORT_FILES.json), `${JSON.stringify(report, null, 2)}\n`)
  await writeFile(path.join(dir, GAS_REPORT_FILES.markdown), gasReportMarkdown(report))
}

/** The report as a markdown table (hardhat-gas-reporter's columns): one row per function, then one per deployment. */
export function gasReportMarkdown(report: GasReport): string {
  const cell = (f: GasFigures | null) => (f === null ? ['', '', '', ''] : [String(f.calls), f.min, f.median, f.max])
  const lines = ['| contract | method | kind | calls | min | median | max |', '|---|---|---|---:|---:|---:|---:|']
  for (const c of report.contracts) {
    for (const m of c.methods) {
      const label = m.method === '' ? '(fallback/receive)' : m.method
      if (m.transactions !== null) lines.push(`| ${c.contract} | ${label} | transaction | ${cell(m.transactions).join(' | ')} |`)
      if (m.internal !== null) lines.push(`| ${c.contract} | ${label} | internal | ${cell(m.internal).join(' | ')} |`)
    }
  }
  lines.push('', '| contract | deployments | min | median | max | size (bytes) |', '|---|---:|---:|---:|---:|---:|')
  for (const c of report.contracts) if (c.deployments !== null) lines.push(`| ${c.contract} | ${cell(c.deployments).join(' | ')} | ${c.size} |`)
  return `${lines.join('\n')}\n`
}
