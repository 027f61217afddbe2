/**
 * dualnet/vitest/reports (issue 38: "the vitest helper writes at the end of the run,
 * merging its workers"): a nested vitest run of fixtures/vitest-reports (three files in
 * two worker threads, each file's devnet with coverage and a gas report) writes one
 * coverage report and one gas report at its end. They equal exactly what a single
 * devnet running all three files' transactions reports: the union of the lines each
 * file covered, and gas figures recomputed from every sample. The merge's parts and
 * rules are tested alone too.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createDevnet } from '../src/index.ts'
import type { DualnetCoverage, GasReport } from '../src/core/rpcObjects.ts'
import { mergeReportParts, readReportParts } from '../src/vitest/mergeParts.ts'
import { sendReportPartsTo, writeReportPart, type GasPart } from '../src/coverage/partSink.ts'
import { gasReportOf } from '../src/gas/report.ts'
import type { GasSamples } from '../src/core/rpcObjects.ts'
import { branches } from '../fixtures/vitest-reports/support.ts'
import { BUILD_INFO, SOURCE_NAME, tempDir } from './coverage-support.ts'

const SOURCE = path.resolve(SOURCE_NAME)

/** Runs the fixture suite in a nested vitest writing into `out`; its exit code and stdout. */
function runSuite(out: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'fixtures/vitest-reports/vitest.config.ts'], {
      env: { ...process.env, DUALNET_REPORTS_OUT: out, DUALNET_GAS_SNAPSHOT_CHECK: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, stdout }))
  })
}

/** What one devnet reports after the three files' transactions, each on a Branches of its own as in its file. */
async function singleDevnet(): Promise<{ coverage: DualnetCoverage; gas: GasReport }> {
  const devnet = await createDevnet({ console: false, coverage: { artifacts: BUILD_INFO }, gasReport: { artifacts: BUILD_INFO, print: false } })
  try {
    const low = await branches(devnet)
    await low.send('add', [5])
    await low.send('add', [7])
    await low.call('total', [])
    const high = await branches(devnet)
    await high.send('add', [500])
    await high.call('pick', [true])
    const failing = await branches(devnet)
    await expect(failing.call('add', [0])).rejects.toThrow('Branches: zero amount')
    const coverage = (await devnet.rpc('dualnet_coverage', [])) as DualnetCoverage
    const gas = (await devnet.rpc('dualnet_gasReport', [])) as GasReport
    return { coverage, gas }
  } finally {
    await devnet.close()
  }
}

describe('a vitest run with dualnet/vitest/reports', () => {
  it('writes one coverage report and one gas report holding every worker’s devnet', async () => {
    const out = tempDir('dualnet-vitest-reports-')
    const run = await runSuite(out)
    expect(run.code).toBe(0)
    const merged = JSON.parse(readFileSync(path.join(out, 'coverage', 'coverage-final.json'), 'utf8'))
    const reference = await singleDevnet()
    expect(reference.coverage.unmatched).toEqual([])
    expect(merged).toEqual(reference.coverage.coverage)
    // Constructor 3 (one per file), add 4 (2 + 1 + the failing call), pick 1, never 0.
    const file = merged[SOURCE]
    expect(Object.values(file.f)).toEqual([3, 4, 1, 0])
    // require passes 3 and fails once (failing-require); if: then 1 (high), else 2 (low); pick: true 1.
    expect(Object.values(file.b)).toEqual([
      [3, 1],
      [1, 2],
      [1, 0],
    ])
    const lcov = readFileSync(path.join(out, 'coverage', 'lcov.info'), 'utf8')
    expect(lcov).toContain(`SF:${SOURCE_NAME}\n`)
    expect(lcov).toContain('FNDA:4,add')
    expect(lcov).toContain('FNDA:0,never')
    const gas = JSON.parse(readFileSync(path.join(out, 'gas', 'gas-report.json'), 'utf8')) as GasReport
    expect(gas).toEqual(reference.gas)
    const add = gas.contracts[0]!.methods.find((m) => m.method === 'add(uint256)')!
    expect(add.transactions?.calls).toBe(3)
    expect(gas.contracts[0]!.deployments?.calls).toBe(3)
    // The table is printed once, at the end of the run, not by each file's devnet.
    expect(run.stdout.split('| contract | method | kind |').length - 1).toBe(1)
  }, 300_000)
})

describe('merging gas samples', () => {
  it('recomputes the median from all samples, not from each part’s', () => {
    const part = (gas: string[]) => ({ contracts: [{ contract: 'C.sol:C', size: 10, methods: [{ method: 'f()', selector: '0x26121ff0', transactions: gas, internal: [] }], deployments: [] }] })
    // Medians 10 and 40 apart; all together 10, 20, 30, 40, 50: 30.
    const report = gasReportOf([part(['10', '20', '30']), part(['40', '50'])])
    expect(report.contracts[0]!.methods[0]!.transactions).toEqual({ calls: 5, min: '10', median: '30', max: '50' })
    expect(report.contracts[0]!.deployments).toBeNull()
  })
})

describe('report parts', () => {
  const samples = (gas: string[]): GasSamples => ({
    contracts: [{ contract: 'C.sol:C', size: 10, methods: [{ method: 'f()', selector: '0x26121ff0', transactions: gas, internal: [] }], deployments: ['100'] }],
  })

  it('prints the parts that print, writes each dir once from its own parts, and skips a part with neither', async () => {
    const parts = tempDir('dualnet-parts-')
    const out = tempDir('dualnet-parts-out-')
    sendReportPartsTo(parts)
    try {
      const written: GasPart[] = [
        { kind: 'gas', dir: null, print: true, samples: samples(['10']) },
        { kind: 'gas', dir: out, print: false, samples: samples(['20', '40']) },
        { kind: 'gas', dir: out, print: true, samples: samples(['30']) },
      ]
      for (const part of written) writeReportPart(part)
    } finally {
      sendReportPartsTo(undefined)
    }
    expect(readReportParts(parts)).toHaveLength(3)
    const printed: string[] = []
    const merged = await mergeReportParts(parts, (text) => printed.push(text))
    expect(merged.coverageDirs).toEqual([])
    expect(merged.gasDirs).toEqual([out])
    // Printed: the first and the third part (10 and 30); written into out: the second and third (20, 30, 40).
    expect(merged.printed!.contracts[0]!.methods[0]!.transactions).toEqual({ calls: 2, min: '10', median: '20', max: '30' })
    expect(printed).toHaveLength(1)
    expect(printed[0]).toContain('| C.sol:C | f() | transaction | 2 | 10 | 20 | 30 |')
    const report = JSON.parse(readFileSync(path.join(out, 'gas-report.json'), 'utf8')) as GasReport
    expect(report.contracts[0]!.methods[0]!.transactions).toEqual({ calls: 3, min: '20', median: '30', max: '40' })
    expect(report.contracts[0]!.deployments).toEqual({ calls: 2, min: '100', median: '100', max: '100' })
  })

  it('reads no parts from a missing directory, refuses a file that is not a part (naming it), and needs a directory to write', () => {
    const parts = tempDir('dualnet-parts-bad-')
    expect(readReportParts(path.join(parts, 'none'))).toEqual([])
    writeFileSync(path.join(parts, 'x.json'), '{"kind":"other"}')
    expect(() => readReportParts(parts)).toThrow(`${path.join(parts, 'x.json')} is not a dualnet report part`)
    expect(() => writeReportPart({ kind: 'gas', dir: null, print: true, samples: { contracts: [] } })).toThrow('no report parts directory')
    expect(existsSync(path.join(parts, 'none'))).toBe(false)
  })
})
