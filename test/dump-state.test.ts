/**
 * State documents (issue 11): dumpState from one devnet, loaded into another, gives
 * every account, both balances, code, storage slots and allowances equal, and the
 * fixture contracts run there unchanged; loadState merges into a running devnet and
 * a snapshot revert undoes it; anvil_dumpState / anvil_loadState (and hardhat_
 * aliases) through viem's test actions; bad documents refused, nothing changed; the
 * CLI's --state written on exit and loaded again.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { AbiCoder, Interface, keccak256 } from 'ethers'
import { createTestClient, custom } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { Reverter, Token } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { PersistenceError, UnsupportedVersionError } from '../src/persistence/errors.ts'
import type { StateDocument } from '../src/persistence/stateDocument.ts'
import { nativeApprove, nativeTransfer, sendNative } from './persistence-support.ts'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const token = new Interface(Token.abi as never)
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** A devnet with a deployed Token, transfers on both interfaces, an approval and a set slot; resolves to it and the token's address. */
async function prepared(): Promise<{ devnet: Devnet; tokenAddress: string }> {
  const devnet = await createDevnet({ accounts: 2, nativeAccounts: 2, console: false })
  const [a, b] = devnet.accounts.map((x) => x.address) as [string, string]
  const data =
    Token.bytecode +
    AbiCoder.defaultAbiCoder()
      .encode(['string', 'string', 'uint256'], ['Dump', 'DMP', 10n ** 24n])
      .slice(2)
  const deploy = await devnet.rpc('eth_sendTransaction', [{ from: a, data, gas: '0x4c4b40' }])
  const tokenAddress = ((await devnet.rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress
  await devnet.rpc('eth_sendTransaction', [{ from: a, to: tokenAddress, data: token.encodeFunctionData('transfer', [b, 5n * 10n ** 18n]), gas: '0x186a0' }])
  await devnet.rpc('eth_sendTransaction', [{ from: b, to: a, value: '0xde0b6b3a7640000', gas: '0x5208' }])
  await sendNative(devnet, nativeTransfer(devnet, 0, 1, 40))
  await sendNative(devnet, nativeApprove(devnet, 1, 0, 7n))
  await devnet.rpc('hardhat_setStorageAt', [tokenAddress, '0x99', `0x${'00'.repeat(31)}2a`])
  return { devnet, tokenAddress }
}

/** What both devnets must agree on for `addresses`: balances in both views, nonces, code, the token's slots. */
async function stateView(devnet: Devnet, addresses: string[], tokenAddress: string) {
  const slots = ['0x0', '0x1', '0x2', '0x99', ...addresses.map((a) => keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [a, 0n])))]
  return Promise.all(
    addresses.map(async (address) => ({
      balance: await devnet.rpc('eth_getBalance', [address, 'latest']),
      nonce: await devnet.rpc('eth_getTransactionCount', [address, 'latest']),
      code: await devnet.rpc('eth_getCode', [address, 'latest']),
      main: ((await devnet.rest.get(`/api/v1/balancev2/${address.slice(2)}`).catch(() => ({ Result: null }))).Result as { main?: string } | null)?.main,
      slots: address === tokenAddress ? await Promise.all(slots.map((s) => devnet.rpc('eth_getStorageAt', [address, s, 'latest']))) : [],
    })),
  )
}

function addressesOf(doc: StateDocument): string[] {
  return Object.keys(doc.accounts)
}

describe('dump and load', () => {
  it('a devnet created from a dump holds every account, balance, code, storage slot and allowance, and runs the fixtures unchanged', async () => {
    const { devnet, tokenAddress } = await prepared()
    const doc = await devnet.dumpState()
    expect(doc).toMatchObject({ format: 'dualnet-state', version: 1, chainId: 12345, head: { number: 5 } })
    expect(doc.accounts[tokenAddress as `0x${string}`]!.storage!['0x0000000000000000000000000000000000000000000000000000000000000099']).toBe(`0x${'00'.repeat(31)}2a`)
    expect(doc.allowances).toContainEqual({ token: 'main', owner: devnet.nativeAccounts[1]!.address, spender: devnet.nativeAccounts[0]!.address, amount: '7000000000' })

    // Through JSON, as a file or another process would carry it.
    const loaded = await createDevnet({ accounts: 2, nativeAccounts: 2, console: false, state: JSON.parse(JSON.stringify(doc)) })
    expect(await loaded.rpc('eth_blockNumber')).toBe('0x0')
    expect(Number(((await loaded.rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp)).toBe(doc.head.timestamp)
    const addresses = addressesOf(doc)
    expect(await stateView(loaded, addresses, tokenAddress)).toEqual(await stateView(devnet, addresses, tokenAddress))
    const again = await loaded.dumpState()
    expect(again.accounts).toEqual(doc.accounts)
    expect(again.allowances).toEqual(doc.allowances)

    // The fixtures: the Token as it was, transfers on; a new contract deploys and reverts as usual.
    const [a, b] = loaded.accounts.map((x) => x.address) as [string, string]
    const balanceOf = async (d: Devnet, who: string) => d.rpc('eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest'])
    expect(await balanceOf(loaded, b)).toBe(await balanceOf(devnet, b))
    const sent = await loaded.rpc('eth_sendTransaction', [{ from: b, to: tokenAddress, data: token.encodeFunctionData('transfer', [a, 10n ** 18n]), gas: '0x186a0' }])
    expect(((await loaded.rpc('eth_getTransactionReceipt', [sent])) as { status: string; logs: unknown[] }).status).toBe('0x1')
    expect(BigInt((await balanceOf(loaded, b)) as string)).toBe(4n * 10n ** 18n)
    const reverter = await loaded.rpc('eth_sendTransaction', [{ from: a, data: Reverter.bytecode, gas: '0x4c4b40' }])
    expect(((await loaded.rpc('eth_getTransactionReceipt', [reverter])) as { status: string }).status).toBe('0x1')
    await Promise.all([devnet.close(), loaded.close()])
  })

  it('loadState merges into a running devnet in one step, and reverting a snapshot undoes it', async () => {
    const { devnet, tokenAddress } = await prepared()
    const doc = await devnet.dumpState()
    const target = await createDevnet({ accounts: 2, nativeAccounts: 2, console: false })
    await target.mine(3)
    const addresses = addressesOf(doc)
    const before = await stateView(target, addresses, tokenAddress)
    const snapshot = await target.snapshot()
    await target.loadState(doc)
    expect(await target.rpc('eth_blockNumber')).toBe('0x3')
    expect(await stateView(target, addresses, tokenAddress)).toEqual(await stateView(devnet, addresses, tokenAddress))
    expect(await target.revert(snapshot)).toBe(true)
    expect(await stateView(target, addresses, tokenAddress)).toEqual(before)
    await Promise.all([devnet.close(), target.close()])
  })

  it('anvil_dumpState gives gzipped JSON as hex, which viem carries to anvil_loadState (and the hardhat_ aliases) on another devnet', async () => {
    const { devnet, tokenAddress } = await prepared()
    const source = createTestClient({ mode: 'anvil', transport: custom(devnet) })
    const state = await source.dumpState()
    expect(state).toMatch(/^0x1f8b/)
    expect(JSON.parse(gunzipSync(Buffer.from(state.slice(2), 'hex')).toString('utf8'))).toEqual(JSON.parse(JSON.stringify(await devnet.dumpState())))
    expect(await devnet.rpc('hardhat_dumpState')).toBe(state)
    const addresses = addressesOf(await devnet.dumpState())

    for (const method of ['viem', 'hardhat_loadState'] as const) {
      const target = await createDevnet({ accounts: 2, nativeAccounts: 2, console: false })
      if (method === 'viem') await createTestClient({ mode: 'anvil', transport: custom(target) }).loadState({ state })
      else expect(await target.rpc(method, [state])).toBe(true)
      expect(await stateView(target, addresses, tokenAddress)).toEqual(await stateView(devnet, addresses, tokenAddress))
      await target.close()
    }
    await devnet.close()
  })

  it('an Anvil state loads too: balance as the gas token in wei, nonce, code, storage', async () => {
    const devnet = await createDevnet({ accounts: 1, console: false })
    const who = '0x00000000000000000000000000000000000000aa'
    await devnet.loadState({ block: { timestamp: '0x64' }, accounts: { [who]: { nonce: 3, balance: '0x10', code: '0x6001', storage: { '0x1': '0x05' } } } })
    expect(await devnet.rpc('eth_getBalance', [who, 'latest'])).toBe('0x10')
    expect(await devnet.rpc('eth_getTransactionCount', [who, 'latest'])).toBe('0x3')
    expect(await devnet.rpc('eth_getCode', [who, 'latest'])).toBe('0x6001')
    expect(await devnet.rpc('eth_getStorageAt', [who, '0x1', 'latest'])).toBe(`0x${'00'.repeat(31)}05`)
    await devnet.close()
  })

  it('another version, a malformed document or bytes that are not one: a clear error, nothing changed', async () => {
    const devnet = await createDevnet({ accounts: 1, console: false })
    const doc = await devnet.dumpState()
    const future = { ...doc, version: 2 }
    await expect(createDevnet({ state: future })).rejects.toThrow(new UnsupportedVersionError('state document version 2 is not supported; this dualnet reads version 1'))
    await expect(devnet.loadState(future)).rejects.toThrow(UnsupportedVersionError)
    const [address] = Object.keys(doc.accounts)
    const bad = { ...doc, accounts: { ...doc.accounts, [address!]: { ...doc.accounts[address as `0x${string}`]!, gas: '-1' } } }
    await expect(devnet.loadState(bad)).rejects.toThrow(new PersistenceError(`invalid state document: accounts.${address}.gas must be a non-negative integer (decimal string)`))
    await expect(devnet.loadState({ format: 'other' })).rejects.toThrow('not a state document: format "other" (expected "dualnet-state")')
    await expect(devnet.rpc('anvil_loadState', [`0x${Buffer.from(JSON.stringify(future)).toString('hex')}`])).rejects.toMatchObject({
      code: -32602,
      message: 'invalid argument 0: state document version 2 is not supported; this dualnet reads version 1',
    })
    await expect(devnet.rpc('anvil_loadState', ['0x1f8b00'])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpcUntyped('anvil_loadState', [])).rejects.toMatchObject({ code: -32602 })
    expect(await devnet.dumpState()).toEqual(doc)
    await devnet.close()
  })
})

describe('the CLI', () => {
  it('--state writes the head state on exit, and a later start loads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dualnet-state-'))
    dirs.push(dir)
    const file = join(dir, 'state.json')
    const start = (args: string[]) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--rpcport', '0', '--quiet', '--accounts', '2', ...args])
      let out = ''
      child.stdout.on('data', (c: Buffer) => (out += c.toString()))
      child.stderr.on('data', (c: Buffer) => (out += c.toString()))
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      const url = new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = /JSON-RPC\s+(http:\S+)/.exec(out)
          if (match === null) return
          clearInterval(timer)
          resolve(match[1]!)
        }, 25)
        void exited.then((code) => {
          clearInterval(timer)
          reject(new Error(`exited ${code}: ${out}`))
        })
      })
      return { child, exited, url }
    }
    const call = async (url: string, method: string, params: unknown[]) =>
      ((await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result: unknown })
        .result
    const who = '0x00000000000000000000000000000000000000ab'

    const first = start(['--state', file])
    const firstUrl = await first.url
    const [from] = (await call(firstUrl, 'eth_accounts', [])) as string[]
    await call(firstUrl, 'eth_sendTransaction', [{ from, to: who, value: '0x2a', gas: '0x5208' }])
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    const written = JSON.parse(readFileSync(file, 'utf8')) as StateDocument
    expect(written.accounts[who]!.gas).toBe('42')

    const second = start(['--load-state', file])
    const secondUrl = await second.url
    expect(await call(secondUrl, 'eth_getBalance', [who, 'latest'])).toBe('0x2a')
    expect(await call(secondUrl, 'eth_getTransactionCount', [from, 'latest'])).toBe('0x1')
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  })
})
