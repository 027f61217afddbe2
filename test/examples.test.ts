/**
 * Every example of examples/ runs green, with the lines it prints checked where the
 * devnet makes them exact. To keep the time low, the scripts run in this process, one
 * after the other (imported, console.log captured), and the example vitest suite is
 * collected into this file; the CI recipe (examples/ci/github-actions.yml) runs in a
 * child process meanwhile, as `npm run example:ci` runs it: its shell steps start the
 * CLI built into dist/ by `npm ci` (`prepare`) and run a vitest suite against it.
 * The Hardhat example projects run under `npm run test:tools` (test/hardhat-examples.test.ts).
 */
import { format } from 'node:util'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ROOT, run, type Run } from './hardhatExamples.ts'

/** Imports an example script (its top level is the example); resolves to what it logged, a line each. */
async function runScript(path: string): Promise<{ output: string }> {
  const lines: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(format(...args)))
  try {
    await import(path)
  } finally {
    log.mockRestore()
  }
  return { output: lines.map((line) => `${line}\n`).join('') }
}

// Started first: the slowest example runs in a child process while the others run here.
let workflow: Promise<Run>
beforeAll(() => {
  workflow = run(process.execPath, ['--import', 'tsx', 'examples/ci/run-workflow.ts'], ROOT)
})
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const GOVERNANCE = '0x0000000000000000000000000000000000000007'

describe('examples', () => {
  it('ethers quickstart (npm run example)', async () => {
    const { output } = await runScript('../examples/quickstart.ts')
    expect(output).toContain('Token deployed at 0x5FbDB2315678afecb367f032d93F642f64180aa3 in block 1\n')
    expect(output).toContain('transfer mined in block 2, status 1, gas used 50806\n')
    expect(output).toContain('  owner     999750\n  recipient 250\n')
    expect(output).toContain(`  #0 tx 0 token Transfer(${OWNER}, ${RECIPIENT}, 250)\n`)
    expect(output).toContain(`  #1 tx 0 gas token (fee) Transfer(${OWNER}, ${GOVERNANCE}, 50806000000000)\n`)
  })

  it('viem (npm run example:viem)', async () => {
    const { output } = await runScript('../examples/viem.ts')
    expect(output).toContain('Token deployed at 0x5fbdb2315678afecb367f032d93f642f64180aa3 in block 1\n')
    expect(output).toContain('transfer mined in block 2, status success, gas used 50806\n')
    expect(output).toContain('  owner     999750\n  recipient 250\n')
    expect(output).toContain('gas-token balance of the owner: 9999.999949194\n')
    expect(output).toContain(`  #1 gas token (fee) Transfer(${OWNER}, ${GOVERNANCE}, 50806000000000)\n`)
  })

  it('native transfer with ontology-ts-sdk over REST (npm run example:native)', async () => {
    const { output } = await runScript('../examples/native-transfer.ts')
    expect(output).toMatch(/^sendrawtransaction: SUCCESS, tx hash [0-9a-f]{64}$/m)
    expect(output).toContain('included in block 1\n')
    expect(output).toContain('event record: State 1, GasConsumed 50000000\n')
    expect(output).toContain('  notify from 0100000000000000000000000000000000000000: ["transfer","AK9eJaa1zqNPP6ow1Q4iNM42Gcd473kyGP","ASZttUTCE3KKn6pYZchhvM7d2AayeMDFZE",100]\n')
    expect(output).toContain('  after  alice AK9eJaa1zqNPP6ow1Q4iNM42Gcd473kyGP: 9900 main, 9999950000000 gas (1e-9 units)\n')
    expect(output).toContain('  after  bob ASZttUTCE3KKn6pYZchhvM7d2AayeMDFZE: 10100 main, 10000000000000 gas (1e-9 units)\n')
    expect(output).toContain('eth_getBalance(alice) = 9999950000000000000000 wei\n')
  })

  it('snapshots and time travel (npm run example:snapshots): the whole output, fixed by a frozen clock', async () => {
    const { output } = await runScript('../examples/time-travel.ts')
    expect(output).toBe(
      [
        'Store deployed at 0x5FbDB2315678afecb367f032d93F642f64180aa3; height 1',
        'after 3 increments: count 3, height 4',
        'revert(0x2) -> true: count 0, height 1',
        'now:                            latest block 1 at 1700000001',
        'increaseTime(3600), mine():     latest block 2 at 1700003600',
        'setNextBlockTimestamp, mine():  latest block 3 at 1800000000',
        'mine(1000, { interval: 12 }):   latest block 1003 at 1800011989',
        'loadFixture again: same contract true, height 1',
        'evm_snapshot 0x3, hardhat_mine 5: height 0x6',
        'evm_revert 0x3: true, height 0x1',
        '',
      ].join('\n'),
    )
  })

  // Its own time limit: a child process that starts the CLI and a vitest run, which on a
  // busy machine takes far longer than a test here (seen: over 30 s with both cores loaded,
  // and the first `npx dualnet` alone over 30 s at a load average of 20: in this repository
  // npx installs the package itself into a fresh npm cache, reading the whole tree).
  it('CI recipe: the GitHub Actions steps start the CLI on ephemeral ports, wait, run a suite, stop (npm run example:ci)', { timeout: 300_000 }, async () => {
    const { code, output } = await workflow
    expect(output).toContain('-- skip: Install\n')
    expect(output).toMatch(/^\{"jsonrpc":"2.0","id":1,"result":"0x0"\}$/m)
    expect(output).toMatch(/Tests\s+2 passed \(2\)/)
    expect(output).toMatch(/^JSON-RPC {2}http:\/\/127\.0\.0\.1:\d+$/m)
    expect(output).toContain('workflow: every step passed\n')
    expect(code).toBe(0)
  })
})

// The example suite's own tests, with its useDevnet() hooks scoped to this block
// (`npm run example:vitest` runs the same file under its own config).
describe('vitest suite with useDevnet and loadFixture (npm run example:vitest)', async () => {
  await import('../examples/vitest-suite/token.test.ts')
})
