/**
 * Gas snapshots (issue 38): named measurements in a snapshot file, merged by concurrent
 * writers, and a check mode that fails on a change beyond the tolerance, through the
 * pure rules (src/gas/snapshots.ts), the file (src/gas/snapshotFile.ts) and the vitest
 * matcher `toMatchGasSnapshot` (src/gas/matcher.ts) on receipts of a real devnet.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPublicClient, createWalletClient, custom, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Token } from '../fixtures/index.ts'
import { configureGasSnapshots } from '../src/gas/matcher.ts'
import { readGasSnapshotFile, writeGasSnapshotFile } from '../src/gas/snapshotFile.ts'
import { changedGasSnapshots, describeGasSnapshotChange, GasSnapshotMismatchError, gasOf, mergeGasSnapshots } from '../src/gas/snapshots.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import * as coverage from './coverage-support.ts'

const dir = mkdtempSync(join(tmpdir(), 'dualnet-gas-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the rules', () => {
  it('fails a change beyond the tolerance and a name the file lacks; passes what the run did not measure', () => {
    const file = { transfer: '51000', mint: '70000', untouched: '1' }
    const measured = new Map([
      ['transfer', 51_500n],
      ['mint', 70_000n],
      ['approve', 46_000n],
    ])
    expect(changedGasSnapshots(file, measured)).toEqual([
      { name: 'transfer', before: 51_000n, after: 51_500n },
      { name: 'approve', before: undefined, after: 46_000n },
    ])
    // 500 of 51,000 is 0.98 %: within 1 %, not within 0.5 %.
    expect(changedGasSnapshots(file, measured, { tolerance: 1 }).map((c) => c.name)).toEqual(['approve'])
    expect(changedGasSnapshots(file, measured, { tolerance: 0.5 }).map((c) => c.name)).toEqual(['transfer', 'approve'])
    expect(describeGasSnapshotChange({ name: 'transfer', before: 51_000n, after: 51_500n })).toBe('transfer: 51000 → 51500 (+500, +0.98%)')
    expect(describeGasSnapshotChange({ name: 'transfer', before: 51_000n, after: 50_000n })).toBe('transfer: 51000 → 50000 (-1000, -1.96%)')
    expect(describeGasSnapshotChange({ name: 'approve', before: undefined, after: 46_000n })).toBe('approve: 46000 (not in the snapshot file)')
  })

  it('merges with sorted keys and reads a receipt, a bigint, a number or a quantity', () => {
    expect(Object.keys(mergeGasSnapshots({ b: '2', a: '1' }, new Map([['c', 3n]])))).toEqual(['a', 'b', 'c'])
    expect([gasOf({ gasUsed: 21_000n }), gasOf({ gasUsed: '0x5208' }), gasOf(21_000), gasOf('0x5208')]).toEqual([21_000n, 21_000n, 21_000n, 21_000n])
    for (const bad of [-1, 1.5, '21000', null, { gasUsed: 'x' }]) expect(() => gasOf(bad)).toThrow(TypeError)
    const error = new GasSnapshotMismatchError('.gas-snapshot.json', [{ name: 'transfer', before: 1n, after: 2n }], 0)
    expect([error.message, error.details, error.dualnetCode]).toEqual(['1 gas snapshot differs from .gas-snapshot.json', 'transfer: 1 → 2 (+1, +100.00%)', 'DUALNET_ERR_GAS_SNAPSHOT_MISMATCH'])
  })
})

describe('the file', () => {
  it('refuses a file that is not a snapshot file, naming it', () => {
    const path = join(dir, 'bad.json')
    writeFileSync(path, '{"transfer": 51000}')
    expect(() => readGasSnapshotFile(path)).toThrow(`${path} is not a gas snapshot file`)
    expect(readGasSnapshotFile(join(dir, 'none.json'))).toEqual({})
  })

  it('loses no entry when four processes write one file at once', async () => {
    const path = join(dir, 'shared', '.gas-snapshot.json')
    const module = fileURLToPath(new URL('../src/gas/snapshotFile.ts', import.meta.url))
    const writer = (id: number) =>
      new Promise<number | null>((resolve) => {
        const script = `const { writeGasSnapshotFile } = await import(${JSON.stringify(module)})
          for (let i = 0; i < 25; i++) writeGasSnapshotFile(${JSON.stringify(path)}, new Map([['w${id} ' + String(i).padStart(2, '0'), BigInt(${id} * 1000 + i)]]))`
        spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' }).once('exit', resolve)
      })
    expect(await Promise.all([1, 2, 3, 4].map(writer))).toEqual([0, 0, 0, 0])
    const entries = readGasSnapshotFile(path)
    expect(Object.keys(entries)).toHaveLength(100)
    expect(entries['w3 07']).toBe('3007')
    expect(writeGasSnapshotFile(path, new Map([['w1 00', 5n]]))['w1 00']).toBe('5')
  }, 120_000)
})

describe('toMatchGasSnapshot on a devnet', () => {
  let devnet: Devnet
  let send: (to: Hex, data: Hex) => Promise<{ gasUsed: bigint }>
  let token: Hex
  const holder = '0x00000000000000000000000000000000000000a1'
  const transferTo = (to: string) => encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [to, 1n] })

  beforeAll(async () => {
    devnet = await createDevnet({ accounts: 1 })
    const account = privateKeyToAccount(devnet.accounts[0]!.privateKey)
    const transport = custom(devnet)
    const wallet = createWalletClient({ account, transport })
    const client = createPublicClient({ transport })
    const chain = { id: 12_345, name: 'dualnet', nativeCurrency: { name: 'gas', symbol: 'GAS', decimals: 18 }, rpcUrls: { default: { http: [] } } }
    const deployed = await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['T', 'T', 10n ** 24n], chain }) })
    token = deployed.contractAddress!
    send = async (to, data) => client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, data, chain }) })
  })
  afterAll(() => devnet.close())

  it('records the receipt’s gas, passes the unchanged function in check mode and fails the costlier one with before and after', async () => {
    const file = join(dir, 'matcher', '.gas-snapshot.json')
    configureGasSnapshots({ file })
    // A transfer to a holder that has tokens: no new storage slot.
    await send(token, transferTo(holder))
    const cheap = await send(token, transferTo(holder))
    expect(cheap).toMatchGasSnapshot('Token.transfer')
    expect(readGasSnapshotFile(file)).toEqual({ 'Token.transfer': cheap.gasUsed.toString() })

    configureGasSnapshots({ file, check: true })
    const again = await send(token, transferTo(holder))
    expect(again).toMatchGasSnapshot('Token.transfer')
    // The same function made costlier: a transfer to a new holder writes a new slot (EIP-2200: 20,000 instead of 5,000).
    const costlier = await send(token, transferTo('0x00000000000000000000000000000000000000b2'))
    expect(costlier.gasUsed).toBeGreaterThan(cheap.gasUsed)
    expect(() => expect(costlier).toMatchGasSnapshot('Token.transfer')).toThrow(`Token.transfer: ${cheap.gasUsed} → ${costlier.gasUsed} (+${costlier.gasUsed - cheap.gasUsed}`)
    expect(() => expect(cheap).toMatchGasSnapshot('Token.approve')).toThrow('Token.approve: ')
    // Within a tolerance that covers the change, it passes; the file was not written in check mode.
    configureGasSnapshots({ file, check: true, tolerance: 100 })
    expect(costlier).toMatchGasSnapshot('Token.transfer')
    expect(readGasSnapshotFile(file)).toEqual({ 'Token.transfer': cheap.gasUsed.toString() })
    expect(readFileSync(file, 'utf8')).toBe(`{\n  "Token.transfer": "${cheap.gasUsed}"\n}\n`)
  })

  it('names a measurement after its test by default, and refuses a negative tolerance', async () => {
    const file = join(dir, 'names', '.gas-snapshot.json')
    configureGasSnapshots({ file })
    const receipt = await send(token, transferTo(holder))
    expect(receipt).toMatchGasSnapshot()
    expect(receipt).toMatchGasSnapshot()
    const name = expect.getState().currentTestName!
    expect(Object.keys(readGasSnapshotFile(file))).toEqual([name, `${name} (2)`])
    expect(() => configureGasSnapshots({ tolerance: -1 })).toThrow(RangeError)
  })
})

describe('devnet.gasSnapshot and dualnet_gasSnapshot', () => {
  it('record a mined transaction’s gas by hash, in process and over HTTP, and a receipt’s; refuse an unknown hash and a bad name', async () => {
    const file = join(dir, 'devnet', 'gas.json')
    const devnet = await createDevnet({ accounts: 2, gasSnapshot: { file } })
    const [a, b] = devnet.accounts as [Devnet['accounts'][number], Devnet['accounts'][number]]
    const hash = (await devnet.rpc('eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x1' }])) as Hex
    expect(await devnet.gasSnapshot('value transfer', hash)).toBe(21_000n)
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash])) as { gasUsed: Hex }
    expect(await devnet.gasSnapshot('from the receipt', receipt)).toBe(21_000n)
    const { rpcUrl } = await devnet.listen()
    const post = async (params: unknown[]) =>
      (await (
        await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'dualnet_gasSnapshot', params }) })
      ).json()) as {
        result?: string
        error?: { code: number; message: string }
      }
    expect(await post(['over http', hash])).toMatchObject({ result: '0x5208' })
    expect(await post(['unknown', `0x${'ab'.repeat(32)}`])).toMatchObject({ error: { code: -32000, message: `transaction 0x${'ab'.repeat(32)} is not mined on this devnet` } })
    expect(await post(['', hash])).toMatchObject({ error: { code: -32602 } })
    await expect(devnet.gasSnapshot('bad', { gasUsed: 'x' as Hex })).rejects.toThrow('a gas snapshot takes a receipt')
    expect(readGasSnapshotFile(file)).toEqual({ 'from the receipt': '21000', 'over http': '21000', 'value transfer': '21000' })
    await devnet.close()
  })

  it('in check mode refuse a change at once and fail close() with every change', async () => {
    const file = join(dir, 'check', 'gas.json')
    mkdirSync(join(dir, 'check'))
    writeFileSync(file, JSON.stringify({ 'value transfer': '21000', 'with data': '21000' }))
    const devnet = await createDevnet({ accounts: 2, gasSnapshot: { file, check: true } })
    const [a, b] = devnet.accounts as [Devnet['accounts'][number], Devnet['accounts'][number]]
    const send = (data: Hex) => devnet.rpc('eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x1', data }]) as Promise<Hex>
    expect(await devnet.gasSnapshot('value transfer', await send('0x'))).toBe(21_000n)
    // Four non-zero calldata bytes: 4 × 16 gas more (EIP-2028).
    await expect(devnet.gasSnapshot('with data', await send('0x01020304'))).rejects.toThrow(GasSnapshotMismatchError)
    await expect(devnet.rpc('dualnet_gasSnapshot', ['new one', await send('0x')])).rejects.toThrow('1 gas snapshot differs from')
    const closing = devnet.close()
    await expect(closing).rejects.toThrow(`2 gas snapshots differ from ${file}`)
    await closing.catch((err: GasSnapshotMismatchError) => expect(err.details).toBe('with data: 21000 → 21064 (+64, +0.30%)\nnew one: 21000 (not in the snapshot file)'))
    expect(readGasSnapshotFile(file)).toEqual({ 'value transfer': '21000', 'with data': '21000' })
  })
})

describe('the gas report as gas snapshots', () => {
  const to = (d: Devnet, data: string, target?: string) =>
    d.rpc('eth_sendTransaction', [{ from: d.accounts[0]!.address, ...(target === undefined ? {} : { to: target }), data: data as Hex, gas: '0x100000' }]) as Promise<Hex>
  const deployed = async (d: Devnet) => ((await d.rpc('eth_getTransactionReceipt', [await to(d, coverage.initCode)])) as { contractAddress: Hex }).contractAddress

  it('writes each function’s median and the deployment’s on close, and in check mode fails the close on a change', async () => {
    const file = join(dir, 'report', 'gas.json')
    const options = { gasReport: { artifacts: coverage.BUILD_INFO, print: false }, console: false } as const
    let devnet = await createDevnet({ ...options, gasSnapshot: { file } })
    let token = await deployed(devnet)
    await to(devnet, coverage.abi.encodeFunctionData('add', [5]), token)
    await devnet.close()
    const written = readGasSnapshotFile(file)
    const add = 'fixtures/coverage/Branches.sol:Branches:add(uint256)'
    expect(Object.keys(written)).toEqual(['fixtures/coverage/Branches.sol:Branches:(deployment)', add])

    // The same function, costlier: above 100 it takes the other branch.
    devnet = await createDevnet({ ...options, gasSnapshot: { file, check: true } })
    token = await deployed(devnet)
    await to(devnet, coverage.abi.encodeFunctionData('add', [500]), token)
    const closing = devnet.close()
    await expect(closing).rejects.toThrow(GasSnapshotMismatchError)
    const { changes } = (await closing.catch((err: GasSnapshotMismatchError) => err)) as GasSnapshotMismatchError
    expect(changes.map((c) => c.name)).toEqual([add])
    expect(changes[0]!.before).toBe(BigInt(written[add]!))
    expect(changes[0]!.after).toBeGreaterThan(changes[0]!.before!)
    expect(readGasSnapshotFile(file)).toEqual(written)

    // Unchanged, it passes.
    devnet = await createDevnet({ ...options, gasSnapshot: { file, check: true } })
    token = await deployed(devnet)
    await to(devnet, coverage.abi.encodeFunctionData('add', [5]), token)
    await devnet.close()
  })
})
