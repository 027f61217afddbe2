/**
 * Coverage measured by the devnet (issue 38): the Branches fixture (an if/else, a
 * require, a ternary, a constructor, a function never called) run through the EVM,
 * mapped through its build-info's source maps and AST to exact lines, statements,
 * functions and branch counts; the reports written by istanbul's reporters, the LCOV
 * accepted by Debian's genhtml where lcov is installed.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CoverageReporter, REPORT_FILES } from '../src/coverage/reporter.ts'
import { CREATION_LIMIT } from '../src/evm/coverage.ts'
import { keccak256 } from '../src/util/hash.ts'
import { fromHex, toHexRaw } from '../src/util/hex.ts'
import { tempDir, abi, BUILD_INFO, branchesExecutor, compiled, CoverageRecorder, initCode, SOURCE_NAME } from './coverage-support.ts'

const SOURCE = path.resolve(SOURCE_NAME)
const CALLER_SOURCE = path.resolve('fixtures/coverage/Caller.sol')

/** An executor recording coverage into a new recorder. */
async function setUp() {
  const recorder = new CoverageRecorder()
  return { recorder, ...(await branchesExecutor(recorder)) }
}

/** Per line, the count of the statements that start on it (istanbul's line coverage). */
function lines(file: { statementMap: Record<string, { start: { line: number } }>; s: Record<string, number> }): Record<number, number> {
  const out: Record<number, number> = {}
  for (const [id, loc] of Object.entries(file.statementMap)) out[loc.start.line] = Math.max(out[loc.start.line] ?? 0, file.s[id]!)
  return out
}

describe('coverage mapped to the sources', () => {
  it('counts exact lines, functions and branches', async () => {
    const { recorder, call } = await setUp()
    expect((await call(initCode, null)).status).toBe(1)
    expect((await call(abi.encodeFunctionData('add', [5]))).status).toBe(1)
    expect((await call(abi.encodeFunctionData('add', [7]))).status).toBe(1)
    expect((await call(abi.encodeFunctionData('add', [0]))).status).toBe(0)
    expect((await call(abi.encodeFunctionData('pick', [true]))).status).toBe(1)
    const { coverage, unmatched } = await new CoverageReporter(recorder, [BUILD_INFO]).take(true)
    expect(unmatched).toEqual([])
    // Caller.sol (the gas report's fixture) is in the same build and ran nothing.
    expect(Object.keys(coverage)).toEqual([SOURCE, CALLER_SOURCE])
    expect(Object.values(coverage[CALLER_SOURCE]!.s)).toEqual([0])
    const file = coverage[SOURCE]!
    // Lines 11-12 constructor; 16 require; 17 if; 18 then (never: amounts were <= 100); 20 else; 22 return; 26 ternary; 30 never().
    expect(lines(file)).toEqual({ 11: 1, 12: 1, 16: 3, 17: 2, 18: 0, 20: 2, 22: 2, 26: 1, 30: 0 })
    expect(Object.values(file.fnMap).map((f) => [f.name, f.line])).toEqual([
      ['constructor', 10],
      ['add', 15],
      ['pick', 25],
      ['never', 29],
    ])
    expect(Object.values(file.f)).toEqual([1, 3, 1, 0])
    expect(Object.values(file.branchMap).map((b) => [b.type, b.line])).toEqual([
      ['if', 16],
      ['if', 17],
      ['cond-expr', 26],
    ])
    // require: passed twice, failed once; if: then 0, else 2; ternary: true once, false never.
    expect(Object.values(file.b)).toEqual([
      [2, 1],
      [0, 2],
      [1, 0],
    ])
  })

  it('adds up takes without reset, starts afresh after one, and names code of no artifact', async () => {
    const { recorder, call } = await setUp()
    const reporter = new CoverageReporter(recorder, [BUILD_INFO])
    await call(abi.encodeFunctionData('add', [500]))
    expect(Object.values((await reporter.take(false)).coverage[SOURCE]!.b)).toEqual([
      [1, 0],
      [1, 0],
      [0, 0],
    ])
    await call(abi.encodeFunctionData('pick', [false]))
    expect(Object.values((await reporter.take(true)).coverage[SOURCE]!.b)).toEqual([
      [1, 0],
      [1, 0],
      [0, 1],
    ])
    expect(Object.values((await reporter.take(true)).coverage[SOURCE]!.s).every((n) => n === 0)).toBe(true)
    // Init code of a contract not among the artifacts (a bare STOP).
    await call('0x00', null)
    expect((await reporter.take(true)).unmatched).toEqual([{ codeHash: `0x${toHexRaw(keccak256(fromHex('0x00')))}`, creation: true }])
  })

  it('holds at most CREATION_LIMIT init codes: past it the reporter takes them into its totals', async () => {
    const { recorder, call } = await setUp()
    const reporter = new CoverageReporter(recorder, [BUILD_INFO])
    const deployments = CREATION_LIMIT + 44
    for (let i = 0; i < deployments; i++) expect((await call(`0x${compiled.evm.bytecode.object}${abi.encodeDeploy([i]).slice(2)}`, null)).status).toBe(1)
    // The recorder gave the first 256 to the reporter when the 257th came.
    expect(recorder.take(false).filter((c) => c.creation)).toHaveLength(deployments - CREATION_LIMIT)
    const file = (await reporter.take(true)).coverage[SOURCE]!
    expect(Object.values(file.f)[0]).toBe(deployments)
  })

  it('writes LCOV, istanbul JSON and HTML; genhtml accepts the LCOV', async () => {
    const { recorder, call } = await setUp()
    await call(abi.encodeFunctionData('add', [5]))
    const dir = tempDir('dualnet-coverage-')
    await new CoverageReporter(recorder, [BUILD_INFO]).write(dir, true)
    for (const name of Object.values(REPORT_FILES)) expect(existsSync(path.join(dir, name)), name).toBe(true)
    const lcov = readFileSync(path.join(dir, REPORT_FILES.lcov), 'utf8')
    expect(lcov).toContain('SF:fixtures/coverage/Branches.sol')
    expect(lcov).toContain('FNDA:0,never')
    expect(lcov).toContain('BRDA:16,0,0,1')
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, REPORT_FILES.json), 'utf8')))).toEqual([SOURCE, CALLER_SOURCE])
    expect(readFileSync(path.join(dir, 'Branches.sol.html'), 'utf8')).toContain('never')
  })

  const genhtml = ['/usr/bin/genhtml', '/usr/local/bin/genhtml'].find((p) => existsSync(p))
  it.skipIf(genhtml === undefined)(`genhtml (Debian lcov) accepts the LCOV${genhtml === undefined ? ' (skipped: lcov is not installed; apt-get install lcov)' : ''}`, async () => {
    const { recorder, call } = await setUp()
    await call(abi.encodeFunctionData('add', [5]))
    await call(abi.encodeFunctionData('add', [0]))
    const dir = tempDir('dualnet-genhtml-')
    await new CoverageReporter(recorder, [BUILD_INFO]).write(dir, true)
    const out = execFileSync(genhtml!, ['--branch-coverage', '--output-directory', path.join(dir, 'genhtml'), path.join(dir, REPORT_FILES.lcov)], { encoding: 'utf8' })
    // add ran: 4 lines of 10 (require, if, else, return; Caller.sol's one line none); 1 function of 5; the require's 2 arms and the if's else of 6.
    expect(out).toMatch(/lines\.+: 40\.0% \(4 of 10 lines\)/)
    expect(out).toMatch(/functions\.+: 20\.0% \(1 of 5 functions\)/)
    expect(out).toMatch(/branches\.+: 50\.0% \(3 of 6 branches\)/)
    expect(existsSync(path.join(dir, 'genhtml', 'index.html'))).toBe(true)
  })
})
