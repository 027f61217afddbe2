/**
 * The gas report (issue 38, item 2): per contract and function the mined
 * transactions and the internal calls with min / median / max gas, the deployments
 * and the code size, named through the build-info; eth_call and estimates not
 * counted; written as JSON and markdown, and printed, on close.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Interface } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { gasFigures, type GasReport } from '../src/gas/report.ts'
import { tempDir, abi, BUILD_INFO, compiled, initCode } from './coverage-support.ts'

const buildInfo = JSON.parse(readFileSync(path.join(BUILD_INFO, 'branches.json'), 'utf8'))
const caller = buildInfo.output.contracts['fixtures/coverage/Caller.sol'].BranchesCaller
const callerAbi = new Interface(caller.abi)
const gas = '0x100000'
let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

/** Sends a transaction with a gas limit (no estimate) and resolves to its receipt's gas used. */
async function send(d: Devnet, tx: { from: string; to?: string; data: string }): Promise<{ gasUsed: bigint; contractAddress: string | null }> {
  const hash = await d.rpc('eth_sendTransaction', [{ ...tx, gas, data: tx.data as `0x${string}` } as never])
  const receipt = (await d.rpc('eth_getTransactionReceipt', [hash]))!
  expect(receipt.status).toBe('0x1')
  return { gasUsed: BigInt(receipt.gasUsed), contractAddress: receipt.contractAddress ?? null }
}

describe('gas report', () => {
  it('figures per function and deployment, internal calls apart, files and print on close', async () => {
    const dir = tempDir('dualnet-gas-report-')
    devnet = await createDevnet({ gasReport: { artifacts: BUILD_INFO, dir, print: false }, console: false })
    const from = devnet.accounts[0]!.address
    const deployed = await send(devnet, { from, data: initCode })
    const to = deployed.contractAddress!
    const a = await send(devnet, { from, to, data: abi.encodeFunctionData('add', [5]) })
    const b = await send(devnet, { from, to, data: abi.encodeFunctionData('add', [500]) })
    const c = await send(devnet, { from, to, data: abi.encodeFunctionData('add', [7]) })
    // Not counted: a call and an estimate.
    await devnet.rpc('eth_call', [{ from, to, data: abi.encodeFunctionData('add', [1]) as `0x${string}` }, 'latest'])
    await devnet.rpc('eth_estimateGas', [{ from, to, data: abi.encodeFunctionData('add', [1]) as `0x${string}` }])
    const via = await send(devnet, { from, data: caller.evm.bytecode.object.replace(/^/, '0x') })
    await send(devnet, { from, to: via.contractAddress!, data: callerAbi.encodeFunctionData('addVia', [to, 9]) })
    // Over JSON-RPC, the report close() writes.
    const served = await devnet.rpc('dualnet_gasReport', [])
    await devnet.close()
    devnet = undefined
    const report = JSON.parse(readFileSync(path.join(dir, 'gas-report.json'), 'utf8')) as GasReport
    expect(report.contracts.map((c) => c.contract)).toEqual(['fixtures/coverage/Branches.sol:Branches', 'fixtures/coverage/Caller.sol:BranchesCaller'])
    expect(served).toEqual(report)
    const [branches, viaContract] = report.contracts
    expect(branches!.size).toBe(compiled.evm.deployedBytecode.object.length / 2)
    expect(branches!.deployments).toEqual(gasFigures([deployed.gasUsed]))
    const add = branches!.methods.find((m) => m.method === 'add(uint256)')!
    expect(add.selector).toBe(abi.getFunction('add')!.selector)
    expect(add.transactions).toEqual(gasFigures([a.gasUsed, b.gasUsed, c.gasUsed]))
    expect(add.transactions!.calls).toBe(3)
    // The internal call through BranchesCaller: one, its frame's gas (below a transaction's: no intrinsic gas).
    expect(add.internal!.calls).toBe(1)
    expect(BigInt(add.internal!.min)).toBeLessThan(a.gasUsed)
    expect(viaContract!.methods.map((m) => [m.method, m.transactions?.calls])).toEqual([['addVia(address,uint256)', 1]])
    const markdown = readFileSync(path.join(dir, 'gas-report.md'), 'utf8')
    expect(markdown).toContain(`| fixtures/coverage/Branches.sol:Branches | add(uint256) | transaction | 3 | ${add.transactions!.min} | ${add.transactions!.median} | ${add.transactions!.max} |`)
    expect(markdown).toContain(`| fixtures/coverage/Branches.sol:Branches | 1 | ${deployed.gasUsed} | ${deployed.gasUsed} | ${deployed.gasUsed} | ${branches!.size} |`)
  })

  it('prints the table to stdout on close by default', async () => {
    devnet = await createDevnet({ gasReport: { artifacts: [BUILD_INFO] }, console: false })
    const from = devnet.accounts[0]!.address
    const deployed = await send(devnet, { from, data: initCode })
    await send(devnet, { from, to: deployed.contractAddress!, data: abi.encodeFunctionData('pick', [true]) })
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    let printed: string
    try {
      await devnet.close()
      printed = log.mock.calls.map(([text]) => String(text)).join('\n')
    } finally {
      log.mockRestore()
    }
    devnet = undefined
    expect(printed).toContain('| fixtures/coverage/Branches.sol:Branches | pick(bool) | transaction | 1 |')
  })

  it('dualnet_gasReport answers -32000 without the option', async () => {
    devnet = await createDevnet({ console: false })
    await expect(devnet.rpc('dualnet_gasReport', [])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('the gas report is off') })
  })

  it('gasFigures: min, median (mean of the middle two, rounded down), max', () => {
    expect(gasFigures([])).toBeNull()
    expect(gasFigures([5n, 1n, 3n])).toEqual({ calls: 3, min: '1', median: '3', max: '5' })
    expect(gasFigures([4n, 1n, 3n, 10n])).toEqual({ calls: 4, min: '1', median: '3', max: '10' })
  })
})
