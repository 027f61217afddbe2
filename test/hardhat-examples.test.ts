/**
 * The Hardhat example projects (examples/hardhat2, examples/hardhat3): each project's
 * own `npx hardhat test --network dualnet` (ethers, chai matchers, network helpers, viem in Hardhat 3, the
 * REST view through the plugin), `hardhat run` and the `dualnet` task, and Hardhat 3's
 * type check against dualnet/hardhat's types. Installed once and cached
 * (test/hardhatExamples.ts); a first run installs each project (minutes), so they run
 * under `npm run test:tools`, not `npm test`. Hardhat 3 runs on Node 22 (its `node`
 * devDependency), as it requires.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { prepareExample, run, serveOnce, type Run, type Served } from './hardhatExamples.ts'

/** What each Hardhat project printed: its suite (`npm test`), its script (`hardhat run`), its `dualnet` task, its type check (Hardhat 3's, against dualnet/hardhat's types). */
let hardhat: Record<'hardhat2' | 'hardhat3', Promise<{ test: Run; script: Run; served: Served; typecheck?: Run }>>
beforeAll(() => {
  const project = async (name: 'hardhat2' | 'hardhat3', script: string) => {
    const dir = await prepareExample(name, { node22: name === 'hardhat3' })
    // Hardhat 3 needs Node 22: the project's `node` devDependency, first on PATH in npm scripts.
    const node = name === 'hardhat3' ? `${dir}/node_modules/.bin/node` : process.execPath
    const test = await run('npm', ['test'], dir)
    const ran = await run(node, ['node_modules/.bin/hardhat', 'run', script, '--network', 'dualnet'], dir)
    const served = await serveOnce(dir, node)
    return name === 'hardhat3' ? { test, script: ran, served, typecheck: await run('npm', ['run', 'typecheck'], dir) } : { test, script: ran, served }
  }
  // One after the other: each installs, compiles and starts Hardhat, and the machine has few cores.
  const first = project('hardhat2', 'scripts/deploy.js')
  hardhat = { hardhat2: first, hardhat3: first.catch(() => undefined).then(() => project('hardhat3', 'scripts/deploy.ts')) }
  // Awaited by their tests; marked handled so that a failure is reported there, not as an unhandled rejection.
  for (const outcome of Object.values(hardhat)) outcome.catch(() => {})
})

describe('Hardhat projects: npx hardhat test --network dualnet', () => {
  /** Mocha's summary: every test passed, none failed. */
  const expectPassing = ({ code, output }: Run, passing: number, pending = 0) => {
    expect(output).toMatch(new RegExp(`\\b${passing} passing\\b`))
    expect(output).not.toMatch(/\bfailing\b/)
    if (pending > 0) expect(output).toMatch(new RegExp(`\\b${pending} pending\\b`))
    expect(code).toBe(0)
  }
  /** `hardhat run scripts/deploy` and `hardhat dualnet` of either project print the same facts. */
  const expectScriptAndServer = (script: Run, served: Served) => {
    expect(script.output).toContain('Token deployed at 0x5FbDB2315678afecb367f032d93F642f64180aa3 in block 1 on dualnet\n')
    expect(script.output).toContain('REST block height: 1\n')
    expect(script.code).toBe(0)
    expect(served.output).toContain("dualnet (chain id 12345) for network 'dualnet'\n")
    expect(served.output).toContain('  (0) 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80\n')
    expect(served.chainId).toBe('0x3039')
    expect(served.restHeight).toBe(0)
    expect(served.code).toBe(0)
  }

  it('Hardhat 2 (examples/hardhat2): the suite, hardhat run, the dualnet task', async () => {
    const { test, script, served } = await hardhat.hardhat2
    expectPassing(test, 14)
    expectScriptAndServer(script, served)
  }, 900_000)

  it('Hardhat 3 on Node 22 (examples/hardhat3): the suite, hardhat run, the dualnet task, its types', async () => {
    const { test, script, served, typecheck } = await hardhat.hardhat3
    expectPassing(test, 18)
    expectScriptAndServer(script, served)
    // The config's `dualnet` key and `connection.dualnet` type-check (hardhat3.d.ts's extensions).
    expect(typecheck).toMatchObject({ code: 0 })
  }, 900_000)
})
