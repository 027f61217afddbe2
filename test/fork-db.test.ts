/**
 * A fork in a database (`db` with `fork`, docs/fork.md "--db"): the database keeps the
 * fork's remote, block and every value fetched, so that a resumed fork starts and
 * answers what it read before without the remote, continues its own blocks, and
 * refuses to resume as a fork of another remote. Values only read (no block mined
 * after them) and history answers survive the CLI killed with SIGKILL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { ContractFactory, Interface, type InterfaceAbi } from 'ethers'
import { Token } from '../fixtures/index.ts'
import { rpcAnswer, started } from './cli-support.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { toBase58 } from '../src/native/address.ts'

const STRANGER = '0x00000000000000000000000000000000c0ffee31'
const UNREAD = '0x00000000000000000000000000000000c0ffee32'
const strangerB58 = toBase58(Buffer.from(STRANGER.slice(2), 'hex'))

let remote: Devnet | undefined
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dualnet-forkdb-'))
}, 120_000)

afterAll(async () => {
  await remote?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('fork with db', () => {
  it('resumes without the remote: values read before, local writes and blocks come from the database', async () => {
    remote = await createDevnet({ chainId: 4244, console: false })
    const { rpcUrl, restUrl } = await remote.listen()
    await remote.setBalance(STRANGER, { main: 77n, gas: 5n * 10n ** 18n })
    await remote.setBalance(UNREAD, { gas: 3n })
    await remote.mine(3)
    const head = Number(await remote.rpc('eth_blockNumber'))
    const path = join(dir, 'chain')
    const fork = { url: rpcUrl, restUrl: restUrl! }

    const first = await createDevnet({ fork, db: new ClassicLevel<string, string>(path), accounts: 1, nativeAccounts: 0, console: false })
    expect(await first.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x4563918244f40000')
    expect(((await first.rest.get(`/api/v1/balancev2/${strangerB58}`)).Result as { main: string }).main).toBe('77')
    // A local write, mined into a block above the fork block.
    await first.rpc('eth_sendTransaction', [{ from: first.accounts[0]!.address, to: STRANGER, value: '0x1' }])
    const tipHash = ((await first.rpc('eth_getBlockByNumber', ['latest', false])) as { hash: string }).hash
    expect(await first.rpc('eth_blockNumber')).toBe(`0x${(head + 1).toString(16)}`)
    await first.close()

    // The remote is gone: the resumed fork needs it only for values not read before.
    await remote.close()
    remote = undefined
    const second = await createDevnet({ fork: { ...fork, remote: { retries: 0 } }, db: new ClassicLevel<string, string>(path), accounts: 1, nativeAccounts: 0, console: false })
    try {
      expect(second.chainId).toBe(4244)
      expect(await second.rpc('eth_blockNumber')).toBe(`0x${(head + 1).toString(16)}`)
      expect(((await second.rpc('eth_getBlockByNumber', ['latest', false])) as { hash: string }).hash).toBe(tipHash)
      expect(await second.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x4563918244f40001')
      expect(((await second.rest.get(`/api/v1/balancev2/${strangerB58}`)).Result as { main: string }).main).toBe('77')
      // A value never read needs the remote, which is not there: the error names the call.
      // (balance, nonce and code over JSON-RPC and the main balance over REST go together: either may fail first.)
      await expect(second.rpc('eth_getBalance', [UNREAD, 'latest'])).rejects.toThrow(
        /^fork: the remote call (eth_getBalance\(0x0+c0ffee32, 0x[0-9a-f]+\)|GET \/api\/v1\/balancev2\/\w+) to http:\/\/127\.0\.0\.1:\d+ failed: ECONNREFUSED/,
      )
      // Local blocks continue on the resumed chain.
      await second.mine()
      expect(await second.rpc('eth_blockNumber')).toBe(`0x${(head + 2).toString(16)}`)
    } finally {
      await second.close()
    }
  }, 120_000)

  it('refuses to resume the database as a fork of another remote, or as no fork, naming the option', async () => {
    const path = join(dir, 'chain')
    await expect(
      createDevnet({ fork: { url: 'http://127.0.0.1:1', restUrl: 'http://127.0.0.1:2' }, db: new ClassicLevel<string, string>(path), accounts: 1, nativeAccounts: 0, console: false }),
    ).rejects.toThrow(
      /^option fork\.url: "http:\/\/127\.0\.0\.1:1" is invalid \(the database holds a fork of http:\/\/127\.0\.0\.1:\d+ with REST http:\/\/127\.0\.0\.1:\d+; refusing to mix them\)\. Allowed: the database's, http:\/\/127\.0\.0\.1:\d+ \(or another database\)\.$/,
    )
    await expect(createDevnet({ db: new ClassicLevel<string, string>(path), accounts: 1, nativeAccounts: 0, console: false })).rejects.toThrow(
      /the database holds a chain with a fork of http:\/\/127\.0\.0\.1:\d+ \(asked for no fork\)/,
    )
  })
})

describe('fork with --db, killed', () => {
  it('keeps values and history that were only read: the CLI killed with SIGKILL resumes with the remote stopped and answers them alike', async () => {
    const origin = await createDevnet({ chainId: 4245, console: false })
    const { rpcUrl, restUrl } = await origin.listen()
    const from = origin.accounts[0]!.address
    const token = new Interface(Token.abi as InterfaceAbi)
    const deploy = (await new ContractFactory(token, Token.bytecode).getDeployTransaction('Kept', 'KPT', 1_000_000n)).data
    const deployHash = (await origin.rpc('eth_sendTransaction', [{ from, data: deploy }])) as string
    const address = ((await origin.rpc('eth_getTransactionReceipt', [deployHash])) as { contractAddress: string }).contractAddress
    const transfer = (await origin.rpc('eth_sendTransaction', [{ from, to: address, data: token.encodeFunctionData('transfer', [STRANGER, 250n]) }])) as string
    await origin.setBalance(STRANGER, { main: 77n, gas: 5n * 10n ** 18n })
    const head = `0x${Number(await origin.rpc('eth_blockNumber')).toString(16)}`
    const path = join(dir, 'killed')
    const args = ['--fork-url', rpcUrl, '--fork-rest-url', restUrl!, '--db', path, '--rpcport', '0', '--rest', '--restport', '0', '--accounts', '1']
    // Reads only: nothing the fork does writes a block after them.
    const reads = async (url: string, rest: string) => ({
      call: await rpcAnswer(url, 'eth_call', [{ to: address, data: token.encodeFunctionData('balanceOf', [STRANGER]) }, 'latest']),
      balance: await rpcAnswer(url, 'eth_getBalance', [STRANGER, 'latest']),
      main: await (await fetch(`${rest}/api/v1/balancev2/${strangerB58}`)).json(),
      block: await rpcAnswer(url, 'eth_getBlockByNumber', ['0x1', true]),
      receipt: await rpcAnswer(url, 'eth_getTransactionReceipt', [transfer]),
      logs: await rpcAnswer(url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: head, address }]),
      restBlock: await (await fetch(`${rest}/api/v1/block/details/height/1`)).json(),
    })
    const first = await started(args)
    let before: Awaited<ReturnType<typeof reads>>
    try {
      before = await reads(first.rpcUrl, first.restUrl!)
    } finally {
      first.child.kill('SIGKILL')
      await first.exited
    }
    // What the remote answers, so that the fork's answers are the remote's.
    expect(before.call.result).toBe(`0x${(250).toString(16).padStart(64, '0')}`)
    expect(before.balance.result).toBe('0x4563918244f40000')
    expect((before.main as { Result: { main: string } }).Result.main).toBe('77')
    expect(before.block.result).toEqual(await origin.rpc('eth_getBlockByNumber', ['0x1', true]))
    expect(before.receipt.result).toEqual(await origin.rpc('eth_getTransactionReceipt', [transfer]))
    expect((before.logs.result as unknown[]).length).toBe(2)
    expect(before.restBlock).toEqual(await origin.rest.get('/api/v1/block/details/height/1'))

    await origin.close()
    const second = await started(args)
    try {
      expect(await reads(second.rpcUrl, second.restUrl!)).toEqual(before)
      // A value never read needs the remote, which is gone.
      expect((await rpcAnswer(second.rpcUrl, 'eth_getBalance', [UNREAD, 'latest'])).error?.message).toMatch(/^fork: the remote call .* failed: ECONNREFUSED/)
    } finally {
      second.child.kill('SIGKILL')
      await second.exited
    }
  }, 120_000)
})
