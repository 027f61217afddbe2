/**
 * Coverage through the devnet's surfaces (issue 38): the `coverage` option records
 * mined transactions, eth_call, eth_estimateGas and the constructor; dualnet_coverage
 * takes and resets; `devnet.close()` writes the reports into `dir`; a devnet without
 * the option answers dualnet_coverage with -32000 and records nothing; a reset keeps
 * what was recorded.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import type { DualnetCoverage } from '../src/core/rpcObjects.ts'
import { tempDir, abi, BUILD_INFO, initCode, SOURCE_NAME } from './coverage-support.ts'

const SOURCE = path.resolve(SOURCE_NAME)
let devnet: Devnet | undefined

afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

/** A gas limit given, so that eth_sendTransaction runs no estimate (an estimate's runs count too). */
const gas = '0x100000'

/** Deploys Branches(7) from the first dev account; its address. */
async function deploy(d: Devnet): Promise<{ from: string; to: string }> {
  const from = d.accounts[0]!.address
  const hash = await d.rpc('eth_sendTransaction', [{ from, gas, data: initCode as `0x${string}` }])
  const receipt = await d.rpc('eth_getTransactionReceipt', [hash])
  return { from, to: receipt!.contractAddress! }
}

describe('coverage option and dualnet_coverage', () => {
  it('counts mined transactions, calls, estimates and the constructor; takes and resets', async () => {
    devnet = await createDevnet({ coverage: { artifacts: BUILD_INFO }, console: false })
    const { from, to } = await deploy(devnet)
    await devnet.rpc('eth_sendTransaction', [{ from, to, gas, data: abi.encodeFunctionData('add', [500]) as `0x${string}` }])
    await devnet.rpc('eth_call', [{ from, to, data: abi.encodeFunctionData('pick', [false]) as `0x${string}` }, 'latest'])
    await devnet.rpc('eth_estimateGas', [{ from, to, data: abi.encodeFunctionData('add', [3]) as `0x${string}` }])
    const taken = (await devnet.rpc('dualnet_coverage', [])) as DualnetCoverage
    expect(taken.unmatched).toEqual([])
    const file = taken.coverage[SOURCE]!
    // Constructor 1; add: the mined 500 once, the estimate's 3 at least once (its search may run it again); pick once; never 0.
    const f = Object.values(file.f)
    expect([f[0], f[2], f[3]]).toEqual([1, 1, 0])
    expect(f[1]).toBeGreaterThanOrEqual(2)
    // if (amount > 100): then-arm from the transaction; else-arm from the estimate. Ternary: false arm.
    const [, ifArms, ternary] = Object.values(file.b)
    expect(ifArms![0]).toBe(1)
    expect(ifArms![1]).toBeGreaterThanOrEqual(1)
    expect(ternary).toEqual([0, 1])
    // Taken and reset: nothing since.
    const again = (await devnet.rpc('dualnet_coverage', [])) as DualnetCoverage
    expect(Object.values(again.coverage[SOURCE]!.s).every((n) => n === 0)).toBe(true)
  })

  it('keeps the totals with reset false, and across a devnet reset', async () => {
    devnet = await createDevnet({ coverage: { artifacts: [BUILD_INFO] }, console: false })
    const { from, to } = await deploy(devnet)
    await devnet.rpc('eth_call', [{ from, to, data: abi.encodeFunctionData('pick', [true]) as `0x${string}` }, 'latest'])
    expect(Object.values(((await devnet.rpc('dualnet_coverage', [false])) as DualnetCoverage).coverage[SOURCE]!.b)[2]).toEqual([1, 0])
    await devnet.reset()
    const second = await deploy(devnet)
    await devnet.rpc('eth_call', [{ from, to: second.to, data: abi.encodeFunctionData('pick', [true]) as `0x${string}` }, 'latest'])
    const file = ((await devnet.rpc('dualnet_coverage', [true])) as DualnetCoverage).coverage[SOURCE]!
    expect(Object.values(file.b)[2]).toEqual([2, 0])
    expect(Object.values(file.f)[0]).toBe(2)
  })

  it('writes the reports into dir on close', async () => {
    const dir = tempDir('dualnet-coverage-close-')
    devnet = await createDevnet({ coverage: { artifacts: BUILD_INFO, dir }, console: false })
    const { from, to } = await deploy(devnet)
    await devnet.rpc('eth_sendTransaction', [{ from, to, gas, data: abi.encodeFunctionData('add', [5]) as `0x${string}` }])
    await devnet.close()
    devnet = undefined
    const lcov = readFileSync(path.join(dir, 'lcov.info'), 'utf8')
    expect(lcov).toContain('FNDA:1,add')
    expect(lcov).toContain('FNDA:0,never')
    expect(existsSync(path.join(dir, 'coverage-final.json'))).toBe(true)
    expect(existsSync(path.join(dir, 'index.html'))).toBe(true)
  })

  it('answers -32000 without the option, and for artifacts it cannot read', async () => {
    devnet = await createDevnet({ console: false })
    await expect(devnet.rpc('dualnet_coverage', [])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('coverage is off') })
    await expect(devnet.rpc('dualnet_coverage', ['yes' as never])).rejects.toMatchObject({ code: -32602 })
    await devnet.close()
    devnet = await createDevnet({ coverage: { artifacts: 'no/such/dir' }, console: false })
    await deploy(devnet)
    await expect(devnet.rpc('dualnet_coverage', [])).rejects.toMatchObject({ code: -32000, message: 'no/such/dir: no such file or directory' })
  })
})
