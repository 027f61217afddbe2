/**
 * Forking a live node, the native state (docs/fork.md "Native state"): with the remote's
 * REST URL, main-token balances, allowances, unbound gas, contract states and native
 * storage come from the remote on first read and equal its answers; local native
 * transactions change only the fork; a later change on the remote is not seen; the
 * REST network id is the remote's. Without the REST URL the routes that read native
 * state say that it is not forked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDevnet, type Devnet } from '../src/index.ts'
import { chainOf } from '../src/devnet/provider.ts'
import { toBase58 } from '../src/native/address.ts'
import { nativeApprove, nativeTransfer, sendNative } from './persistence-support.ts'

const STRANGER = '0x00000000000000000000000000000000c0ffee21'
const strangerB58 = toBase58(Buffer.from(STRANGER.slice(2), 'hex'))
/** The main-token and governance contracts in the REST hex form (byte-reversed). */
const MAIN_CONTRACT = '0100000000000000000000000000000000000000'
const GOVERNANCE = '0700000000000000000000000000000000000000'

let remote: Devnet
let rpcUrl: string
let restUrl: string

/** The REST answers both devnets give for `paths`, side by side. */
async function both(paths: string[]): Promise<{ fork: unknown[]; remote: unknown[] }> {
  return { fork: await Promise.all(paths.map((p) => fork.rest.get(p))), remote: await Promise.all(paths.map((p) => remote.rest.get(p))) }
}

let fork: Devnet

beforeAll(async () => {
  // Unbound gas on, with a genesis long ago: a main-token transfer grants gas into the claimable allowance.
  remote = await createDevnet({ chainId: 4243, nativeAccounts: 3, unboundGas: {}, genesisTimestamp: 1_540_000_000, console: false })
  const urls = await remote.listen()
  rpcUrl = urls.rpcUrl
  restUrl = urls.restUrl!
  await sendNative(remote, nativeTransfer(remote, 0, 2, 1234))
  await sendNative(remote, nativeApprove(remote, 0, 1, 500n))
  await remote.setBalance(STRANGER, { main: 123_456_789n, gas: 7n * 10n ** 18n })
  // The fork funds no dev accounts of its own: every balance it shows is the remote's or its own transactions'.
  fork = await createDevnet({ fork: { url: rpcUrl, restUrl }, accounts: 0, nativeAccounts: 0, console: false })
}, 120_000)

afterAll(async () => {
  await fork?.close()
  await remote?.close()
})

describe('fork with the remote REST URL', () => {
  it("answers the remote's REST network id", async () => {
    const { fork: f, remote: r } = await both(['/api/v1/networkid'])
    expect(f).toEqual(r)
    expect((f[0] as { Result: number }).Result).toBe(3)
  })

  it("reads every native balance, allowance and unbound gas as the remote answers it, and eth_getBalance agrees with balancev2's gas", async () => {
    const accounts = [...remote.nativeAccounts.map((a) => a.base58), strangerB58]
    const [a0, a1] = remote.nativeAccounts.map((a) => a.base58) as [string, string]
    const paths = [
      ...accounts.flatMap((b58) => [`/api/v1/balancev2/${b58}`, `/api/v1/balance/${b58}`, `/api/v1/unboundgas/${b58}`]),
      `/api/v1/allowance/ont/${a0}/${a1}`,
      `/api/v1/allowancev2/main/${a0}/${a1}`,
      `/api/v1/allowancev2/gas/${a0}/${a1}`,
    ]
    const { fork: f, remote: r } = await both(paths)
    // The heights differ by nothing: the fork stands at the remote's head. (grantgas is left out: it counts from
    // the grant offset, which is not forked, under the fork's own unboundGas rule; docs/fork.md.)
    expect(f).toEqual(r)
    const stranger = (f[9] as { Result: { main: string; gas: string } }).Result
    expect(stranger).toMatchObject({ main: '123456789', gas: '7000000000000000000' })
    expect(await fork.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe(`0x${(7n * 10n ** 18n).toString(16)}`)
    // The unbound gas granted at the transfer is there, and the approve's allowance.
    expect((f[2] as { Result: string }).Result).not.toBe('0')
    expect((f[accounts.length * 3] as { Result: string }).Result).toBe('500')
  })

  it('reads contract states and native storage as the remote answers them', async () => {
    const paths = [`/api/v1/contract/${MAIN_CONTRACT}`, `/api/v1/contract/${MAIN_CONTRACT}?raw=1`, `/api/v1/contract/${GOVERNANCE}`, `/api/v1/storage/${GOVERNANCE}/0102`]
    const { fork: f, remote: r } = await both(paths)
    expect(f).toEqual(r)
    expect((f[0] as { Error: number }).Error).toBe(0)
  })

  it('runs local native transactions on the remote balances, changing only the fork', async () => {
    const before = (await remote.rest.get(`/api/v1/balancev2/${remote.nativeAccounts[1]!.base58}`)).Result
    await sendNative(fork, nativeTransfer(remote, 1, 2, 7))
    const b1 = (await fork.rest.get(`/api/v1/balancev2/${remote.nativeAccounts[1]!.base58}`)).Result as { main: string }
    expect(BigInt(b1.main)).toBe(BigInt((before as { main: string }).main) - 7n * 10n ** 9n)
    expect((await remote.rest.get(`/api/v1/balancev2/${remote.nativeAccounts[1]!.base58}`)).Result).toEqual(before)
    // The approved spender spends on the fork: the remote's allowance is the starting point.
    await sendNative(fork, nativeApprove(remote, 0, 1, 200n))
    expect((await fork.rest.get(`/api/v1/allowance/ont/${remote.nativeAccounts[0]!.base58}/${remote.nativeAccounts[1]!.base58}`)).Result).toBe('200')
    expect((await remote.rest.get(`/api/v1/allowance/ont/${remote.nativeAccounts[0]!.base58}/${remote.nativeAccounts[1]!.base58}`)).Result).toBe('500')
  })

  it('keeps a native value from its first read: a later change on the remote is not seen', async () => {
    const probe = '0x00000000000000000000000000000000c0ffee22'
    const b58 = toBase58(Buffer.from(probe.slice(2), 'hex'))
    await remote.setBalance(probe, { main: 5n })
    expect(((await fork.rest.get(`/api/v1/balancev2/${b58}`)).Result as { main: string }).main).toBe('5')
    await remote.setBalance(probe, { main: 9n })
    expect(((await fork.rest.get(`/api/v1/balancev2/${b58}`)).Result as { main: string }).main).toBe('5')
  })

  it('refuses a past block with restUrl (REST serves the latest state only)', async () => {
    await remote.mine()
    const head = Number(await remote.rpc('eth_blockNumber'))
    await expect(createDevnet({ fork: { url: rpcUrl, restUrl, blockNumber: 0 }, console: false })).rejects.toThrow(
      `option fork.blockNumber: 0 is invalid (with fork.restUrl the native state comes from the remote's REST interface, which answers its latest state only, so a fork with it cannot read state as of block 0). Allowed: the remote's latest block, ${head} (leave blockNumber out to fork at it), or no restUrl to fork the EVM view only.`,
    )
  })

  it('keeps native values in the disk cache: a second run reads them without the remote', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dualnet-forknative-'))
    try {
      const head = Number(await remote.rpc('eth_blockNumber'))
      const options = { fork: { url: rpcUrl, restUrl, blockNumber: head, cache: dir }, accounts: 0, nativeAccounts: 0, console: false } as const
      const first = await createDevnet(options)
      const paths = [`/api/v1/balancev2/${strangerB58}`, `/api/v1/allowancev2/main/${remote.nativeAccounts[0]!.base58}/${remote.nativeAccounts[1]!.base58}`, `/api/v1/contract/${MAIN_CONTRACT}`]
      const answers = await Promise.all(paths.map((p) => first.rest.get(p)))
      await first.close()
      const second = await createDevnet(options)
      const remoteNode = chainOf(second).fork!.remote
      const trips = remoteNode.roundTrips
      expect(await Promise.all(paths.map((p) => second.rest.get(p)))).toEqual(answers)
      expect(remoteNode.roundTrips).toBe(trips)
      await second.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('fork without the REST URL', () => {
  let evmOnly: Devnet
  beforeAll(async () => {
    evmOnly = await createDevnet({ fork: { url: rpcUrl }, console: false })
  }, 120_000)
  afterAll(async () => {
    await evmOnly?.close()
  })

  it('says plainly that native state is not forked (45001, the reason as Result), and serves the EVM view', async () => {
    const [a0, a1] = remote.nativeAccounts.map((a) => a.base58) as [string, string]
    for (const [path, what] of [
      [`/api/v1/balancev2/${strangerB58}`, 'main-token balances are'],
      [`/api/v1/balance/${strangerB58}`, 'main-token balances are'],
      [`/api/v1/allowancev2/main/${a0}/${a1}`, 'allowances are'],
      [`/api/v1/unboundgas/${a0}`, 'unbound gas (an allowance) is'],
      [`/api/v1/storage/${GOVERNANCE}/0102`, 'native contract storage is'],
      [`/api/v1/contract/${MAIN_CONTRACT}`, 'contract states are'],
    ]) {
      const answer = await evmOnly.rest.get(path!)
      expect(answer).toMatchObject({ Error: 45001, Desc: 'INTERNAL ERROR' })
      expect(answer.Result).toBe(
        `fork: ${what} not forked: the fork has no REST URL of the remote (fork.restUrl, --fork-rest-url), so native state is not fetched; the EVM view (eth_getBalance for gas balances) is forked`,
      )
    }
    expect(await evmOnly.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe(`0x${(7n * 10n ** 18n).toString(16)}`)
    expect((await evmOnly.rest.get('/api/v1/networkid')).Result).toBe(3)
  })
})
