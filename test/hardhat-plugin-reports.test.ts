/**
 * The Hardhat 2 plugin's `coverage` and `gasReport` config keys (issue 38: reachable
 * "in the Hardhat plugin config"): `hardhat test --network dualnet` and `hardhat run`
 * in fixtures/hardhat-reports (the repository's Hardhat 2.29, the plugin from the
 * sources under tsx, the Branches fixture compiled already) write the coverage reports
 * and the gas report of the run, and print the gas table, when the task ends. Hardhat 2
 * exits its process without closing providers: the plugin closes the devnet at the
 * end of `test` and `run`, and a script's process (`hardhat run` forks one) when its
 * event loop empties (src/hardhat/v2.ts). About a second per run: in `npm test`.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { GasReport } from '../src/core/rpcObjects.ts'
import { tempDir } from './coverage-support.ts'

const PROJECT = path.resolve('fixtures/hardhat-reports')
const require = createRequire(import.meta.url)

/** Runs Hardhat 2's CLI with `args` in the fixture project, its reports into `out`; exit code and stdout. */
function hardhat(args: readonly string[], out: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = require.resolve('hardhat/internal/cli/cli.js')
  // tsx for the config's require() of the plugin (first: `hardhat run`'s child process preloads
  // hardhat/register, which loads the config, before an --import hook is ready) and for the devnet's import().
  const tsx = ['--require', require.resolve('tsx/cjs'), '--import', pathToFileURL(require.resolve('tsx')).href]
  const { HARDHAT_NETWORK: _, ...env } = process.env
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...tsx, cli, ...args], { cwd: PROJECT, env: { ...env, DUALNET_REPORTS_OUT: out, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** lcov.info's `DA` records of Branches.sol: line → count. */
function lineCounts(lcov: string): Record<string, number> {
  const record = lcov.split('end_of_record').find((r) => r.includes('SF:fixtures/coverage/Branches.sol\n'))!
  return Object.fromEntries([...record.matchAll(/^DA:(\d+),(\d+)$/gm)].map(([, line, count]) => [line!, Number(count)]))
}

describe('the Hardhat 2 plugin with coverage and gasReport', () => {
  it('hardhat test --network dualnet writes the coverage and gas reports and prints the table when the task ends', async () => {
    const out = tempDir('dualnet-hardhat-reports-')
    const run = await hardhat(['test', '--no-compile', '--network', 'dualnet'], out)
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('1 passing')
    expect(run.code).toBe(0)
    // Constructor (11, 12); add(5) and add(500): require 16, if 17, then-arm 18 once, else-arm 20 once, return 22; pick 26; never 30.
    const lcov = readFileSync(path.join(out, 'coverage', 'lcov.info'), 'utf8')
    expect(lineCounts(lcov)).toEqual({ 11: 1, 12: 1, 16: 2, 17: 2, 18: 1, 20: 1, 22: 2, 26: 1, 30: 0 })
    expect(lcov).toContain('FNDA:2,add\n')
    expect(lcov).toContain('FNDA:0,never\n')
    expect(existsSync(path.join(out, 'coverage', 'index.html'))).toBe(true)
    const gas = JSON.parse(readFileSync(path.join(out, 'gas', 'gas-report.json'), 'utf8')) as GasReport
    // add(5) on total 7 costs 28671, then add(500) 28693 (test/gas-report.test.ts's figures).
    expect(gas).toEqual({
      contracts: [
        {
          contract: 'fixtures/coverage/Branches.sol:Branches',
          size: 1095,
          methods: [{ method: 'add(uint256)', selector: '0x1003e2d2', transactions: { calls: 2, min: '28671', median: '28682', max: '28693' }, internal: null }],
          deployments: { calls: 1, min: '312044', median: '312044', max: '312044' },
        },
      ],
    })
    expect(run.stdout).toContain('| fixtures/coverage/Branches.sol:Branches | add(uint256) | transaction | 2 | 28671 | 28682 | 28693 |\n')
    expect(readFileSync(path.join(out, 'gas', 'gas-report.md'), 'utf8')).toContain('| fixtures/coverage/Branches.sol:Branches | 1 | 312044 | 312044 | 312044 | 1095 |\n')
  }, 180_000)

  it('hardhat run --network dualnet writes them when the script ends', async () => {
    const out = tempDir('dualnet-hardhat-reports-run-')
    const run = await hardhat(['run', '--no-compile', '--network', 'dualnet', 'scripts/add.js'], out)
    expect(run.stdout).toContain('Branches at 0x')
    expect(run.code).toBe(0)
    const lcov = readFileSync(path.join(out, 'coverage', 'lcov.info'), 'utf8')
    expect(lineCounts(lcov)).toEqual({ 11: 1, 12: 1, 16: 1, 17: 1, 18: 0, 20: 1, 22: 1, 26: 0, 30: 0 })
    const gas = JSON.parse(readFileSync(path.join(out, 'gas', 'gas-report.json'), 'utf8')) as GasReport
    expect(gas.contracts[0]!.methods[0]!.transactions).toEqual({ calls: 1, min: '28671', median: '28671', max: '28671' })
    // Printed once, by the script's process.
    expect(run.stdout.split('| contract | method | kind |').length - 1).toBe(1)
  }, 180_000)

  it('hardhat test on Hardhat’s own network starts no devnet and writes nothing', async () => {
    const out = tempDir('dualnet-hardhat-reports-own-')
    const run = await hardhat(['test', '--no-compile'], out)
    expect(run.stdout).toContain('1 passing')
    expect(existsSync(path.join(out, 'coverage'))).toBe(false)
    expect(existsSync(path.join(out, 'gas'))).toBe(false)
  }, 180_000)
})
