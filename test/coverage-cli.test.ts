/**
 * Coverage of a suite over HTTP against the CLI (issue 38): `--coverage <artifacts>`
 * records what the requests ran, dualnet_coverage serves it on demand, and the
 * reports are written into `--coverage-dir` on exit; Debian's genhtml accepts the
 * LCOV where lcov is installed. `--gas-report` prints its table on exit and writes it
 * into `--gas-report-dir`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort, rpcAnswer, rpcCall, started, stop } from './cli-support.ts'
import { tempDir, abi, BUILD_INFO, initCode, SOURCE_NAME } from './coverage-support.ts'

const genhtml = ['/usr/bin/genhtml', '/usr/local/bin/genhtml'].find((p) => existsSync(p))

describe('--coverage and --gas-report', () => {
  /** The reports' directory the first test's CLI wrote on exit, for genhtml. */
  let written: string | undefined
  it('serves dualnet_coverage and writes lcov.info, coverage-final.json and HTML on exit', { timeout: 120_000 }, async () => {
    const dir = tempDir('dualnet-coverage-cli-')
    const out = path.join(dir, 'reports')
    const cli = await started(['--rpcport', String(await freePort()), '--quiet', '--coverage', BUILD_INFO, '--coverage-dir', out, '--gas-report', BUILD_INFO, '--gas-report-dir', out])
    try {
      const [from] = (await rpcCall(cli.rpcUrl, 'eth_accounts')) as string[]
      const deployed = await rpcCall(cli.rpcUrl, 'eth_sendTransaction', [{ from, gas: '0x100000', data: initCode }])
      const { contractAddress: to } = (await rpcCall(cli.rpcUrl, 'eth_getTransactionReceipt', [deployed])) as { contractAddress: string }
      await rpcCall(cli.rpcUrl, 'eth_sendTransaction', [{ from, to, gas: '0x100000', data: abi.encodeFunctionData('add', [5]) }])
      await rpcCall(cli.rpcUrl, 'eth_call', [{ from, to, data: abi.encodeFunctionData('pick', [true]) }, 'latest'])
      // On demand, keeping the totals for the reports on exit.
      const answer = await rpcAnswer(cli.rpcUrl, 'dualnet_coverage', [false])
      const file = (answer.result as { coverage: Record<string, { f: Record<string, number> }> }).coverage[path.resolve(SOURCE_NAME)]!
      expect(Object.values(file.f)).toEqual([1, 1, 1, 0])
    } finally {
      expect(await stop(cli)).toBe(0)
    }
    const lcov = readFileSync(path.join(out, 'lcov.info'), 'utf8')
    expect(lcov).toContain('FNDA:1,add')
    expect(lcov).toContain('FNDA:0,never')
    expect(existsSync(path.join(out, 'coverage-final.json'))).toBe(true)
    expect(existsSync(path.join(out, 'index.html'))).toBe(true)
    // The gas report: printed on exit, and written beside.
    expect(cli.output()).toContain('| fixtures/coverage/Branches.sol:Branches | add(uint256) | transaction | 1 |')
    expect(readFileSync(path.join(out, 'gas-report.md'), 'utf8')).toContain('| fixtures/coverage/Branches.sol:Branches | 1 |')
    written = out
  })

  it.skipIf(genhtml === undefined)(`genhtml (Debian lcov) accepts the lcov.info written on exit${genhtml === undefined ? ' (skipped: lcov is not installed; apt-get install lcov)' : ''}`, () => {
    expect(written, 'the test before wrote no reports').toBeDefined()
    const report = execFileSync(genhtml!, ['--branch-coverage', '--output-directory', path.join(written!, 'genhtml'), path.join(written!, 'lcov.info')], { encoding: 'utf8' })
    expect(report).toMatch(/functions\.+: 60\.0% \(3 of 5 functions\)/)
  })
})
