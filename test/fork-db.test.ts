/**
 * A fork in a database (`db` with `fork`, docs/fork.md "--db"): the database keeps the
 * fork's remote, block and every value fetched, so that a resumed fork starts and
 * answers what it read before without the remote, continues its own blocks, and
 * refuses to resume as a fork of another remote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { createDevnet, type Devnet } from '../src/index.ts'
import { toBase58 } from '../src/native/address.ts'

const STRANGER = '0x00000000000000000000000000000000c0ffee31'
const UNREAD = '0x00000000000000000000000000000000c0ffee32'
const strangerB58 = toBase58(Buffer.from(STRANGER.slice(2), 'hex'))

let remote: Devnet | undefined
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dualnet-forkdb-'))
}, 30_000)

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
  }, 60_000)

  it('refuses to resume the database as a fork of another remote, or as no fork, naming the option', async () => {
    const path = join(dir, 'chain')
    await expect(
      createDevnet({ fork: { url: 'http://127.0.0.1:1', restUrl: 'http://127.0.0.1:2' }, db: new ClassicLevel<string, string>(path), accounts: 1, nativeAccounts: 0, console: false }),
    ).rejects.toThrow(
      /^option fork\.url http:\/\/127\.0\.0\.1:1 with REST http:\/\/127\.0\.0\.1:2: the database holds a fork of http:\/\/127\.0\.0\.1:\d+ with REST http:\/\/127\.0\.0\.1:\d+; refusing to mix them/,
    )
    await expect(createDevnet({ db: new ClassicLevel<string, string>(path), accounts: 1, nativeAccounts: 0, console: false })).rejects.toThrow(
      /the database holds a chain with a fork of http:\/\/127\.0\.0\.1:\d+ \(asked for no fork\)/,
    )
  })
})
