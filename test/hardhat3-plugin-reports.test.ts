/**
 * The Hardhat 3 plugin's `coverage` and `gasReport` config keys (issue 38): in the
 * installed examples/hardhat3 project (Hardhat 3 on Node 22, this checkout's dist/ as
 * its dualnet: test/hardhatExamples.ts), `hardhat test mocha --network dualnet` with a
 * config and a test written for this test (`*.tmp.*`, which git ignores) writes the
 * coverage and gas reports of the Branches fixture once the run ends, from a
 * connection the test never closes (src/hardhat/v3Network.ts closes it before the
 * process exits). Installs Hardhat 3 on a first run: under `npm run test:tools`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { GasReport } from '../src/core/rpcObjects.ts'
import { tempDir } from './coverage-support.ts'
import { prepareExample, ROOT, run } from './hardhatExamples.ts'

const CONFIG = 'hardhat.reports.tmp.config.js'
const TESTS = 'reports.tmp.test'
const BUILD_INFO = path.join(ROOT, 'fixtures/coverage/build-info')

let project: string | undefined
afterAll(() => {
  if (project === undefined) return
  rmSync(path.join(project, CONFIG), { force: true })
  rmSync(path.join(project, TESTS), { recursive: true, force: true })
})

/** Writes the config and the test into the example project; `out`: where the reports go. */
function writeProject(dir: string, out: string): void {
  writeFileSync(
    path.join(dir, CONFIG),
    `import { defineConfig } from 'hardhat/config'
import hardhatMocha from '@nomicfoundation/hardhat-mocha'
import dualnet from 'dualnet/hardhat'

const artifacts = ${JSON.stringify(BUILD_INFO)}
export default defineConfig({
  plugins: [hardhatMocha, dualnet],
  paths: { tests: { mocha: ${JSON.stringify(TESTS)} } },
  dualnet: { coverage: { artifacts, dir: ${JSON.stringify(path.join(out, 'coverage'))} }, gasReport: { artifacts, dir: ${JSON.stringify(path.join(out, 'gas'))} } },
})
`,
  )
  mkdirSync(path.join(dir, TESTS), { recursive: true })
  writeFileSync(
    path.join(dir, TESTS, 'branches.js'),
    `import { readFileSync } from 'node:fs'
import { Interface } from 'ethers'
import { network } from 'hardhat'

const compiled = JSON.parse(readFileSync(${JSON.stringify(path.join(BUILD_INFO, 'branches.json'))}, 'utf8')).output.contracts['fixtures/coverage/Branches.sol'].Branches
const abi = new Interface(compiled.abi)
// Never closed: the plugin closes its devnet when the process is about to end.
const { provider } = await network.connect()

describe('Branches on the dualnet network', () => {
  it('deploys and adds', async () => {
    const [from] = await provider.request({ method: 'eth_accounts' })
    const send = async (params) => provider.request({ method: 'eth_getTransactionReceipt', params: [await provider.request({ method: 'eth_sendTransaction', params: [{ from, ...params }] })] })
    const { contractAddress: to } = await send({ data: \`0x\${compiled.evm.bytecode.object}\${abi.encodeDeploy([7]).slice(2)}\` })
    await send({ to, data: abi.encodeFunctionData('add', [5]) })
    await send({ to, data: abi.encodeFunctionData('add', [500]) })
  })
})
`,
  )
}

describe('the Hardhat 3 plugin with coverage and gasReport', () => {
  it('hardhat test mocha --network dualnet writes the reports when the run ends', async () => {
    project = await prepareExample('hardhat3', { node22: true })
    const out = tempDir('dualnet-hardhat3-reports-')
    writeProject(project, out)
    const tested = await run(path.join(project, 'node_modules/.bin/node'), ['node_modules/.bin/hardhat', '--config', CONFIG, 'test', 'mocha', '--no-compile', '--network', 'dualnet'], project)
    expect(tested.output).toContain('1 passing')
    expect(tested.code).toBe(0)
    const lcov = readFileSync(path.join(out, 'coverage', 'lcov.info'), 'utf8')
    expect(lcov).toContain('FNDA:2,add\n')
    expect(lcov).toContain('DA:18,1\n')
    expect(lcov).toContain('DA:20,1\n')
    expect(lcov).toContain('DA:26,0\n')
    expect(existsSync(path.join(out, 'coverage', 'index.html'))).toBe(true)
    const gas = JSON.parse(readFileSync(path.join(out, 'gas', 'gas-report.json'), 'utf8')) as GasReport
    expect(gas.contracts.map((c) => [c.contract, c.methods.map((m) => [m.method, m.transactions]), c.deployments?.calls])).toEqual([
      ['fixtures/coverage/Branches.sol:Branches', [['add(uint256)', { calls: 2, min: '28671', median: '28682', max: '28693' }]], 1],
    ])
    expect(tested.output).toContain('| fixtures/coverage/Branches.sol:Branches | add(uint256) | transaction | 2 | 28671 | 28682 | 28693 |')
  }, 900_000)
})
