/**
 * Unbound gas on a fork with the remote's REST URL (docs/fork.md "Native state"): an
 * address's grant offset (seconds after genesis of its last grant, the main-token
 * contract's storage at "unboundTimeOffset" ‖ address, reference §4.2) is fetched on
 * first read, and the fork's offsets count from the remote's genesis, so that
 * `grantgas` and `unboundgas` on the fork equal the remote's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { nativeTransfer, sendNative } from './persistence-support.ts'

const GENESIS = 1_540_000_000
/** The main-token contract in REST's byte-reversed hex form. */
const MAIN_CONTRACT = '0100000000000000000000000000000000000000'
const offsetKey = (devnet: Devnet, i: number) => `${Buffer.from('unboundTimeOffset').toString('hex')}${devnet.nativeAccounts[i]!.address.slice(2)}`

let remote: Devnet
let fork: Devnet

beforeAll(async () => {
  // Frozen clocks: the fork's time is its fork block's, the remote's latest block's, so both grant at the same moment.
  remote = await createDevnet({ chainId: 4246, nativeAccounts: 3, unboundGas: {}, clock: 'frozen', genesisTimestamp: GENESIS, console: false })
  const { rpcUrl, restUrl } = await remote.listen()
  // A transfer 1,000 s after genesis grants accounts 0 and 2 and sets their offsets to 1000; account 1 is never granted.
  await remote.rpc('evm_increaseTime', [1000])
  await sendNative(remote, nativeTransfer(remote, 0, 2, 1234))
  await remote.rpc('evm_increaseTime', [5000])
  await remote.mine()
  fork = await createDevnet({ fork: { url: rpcUrl, restUrl: restUrl! }, unboundGas: {}, clock: 'frozen', accounts: 0, nativeAccounts: 0, console: false })
}, 120_000)

afterAll(async () => {
  await fork?.close()
  await remote?.close()
})

describe('unbound gas on a fork', () => {
  it('the remote serves the offset as the node stores it: 4 bytes little-endian at "unboundTimeOffset" ‖ address, "" when never set', async () => {
    expect((await remote.rest.get(`/api/v1/storage/${MAIN_CONTRACT}/${offsetKey(remote, 0)}`)).Result).toBe('e8030000')
    expect((await remote.rest.get(`/api/v1/storage/${MAIN_CONTRACT}/${offsetKey(remote, 1)}`)).Result).toBe('')
  })

  it("grantgas and unboundgas equal the remote's, for an address granted before the fork and one never granted", async () => {
    for (const i of [0, 1, 2]) {
      const b58 = remote.nativeAccounts[i]!.base58
      for (const route of ['grantgas', 'unboundgas'] as const) {
        const [onFork, onRemote] = await Promise.all([fork.rest.get(`/api/v1/${route}/${b58}`), remote.rest.get(`/api/v1/${route}/${b58}`)])
        expect(onFork, `${route} of native account ${i}`).toEqual(onRemote)
      }
    }
    // Not the zero of an unknown offset: account 0 accrued over 5,000 s (from its offset), not 6,000 s (from genesis).
    const grant = Number((await fork.rest.get(`/api/v1/grantgas/${remote.nativeAccounts[0]!.base58}`)).Result)
    const main = Number(((await remote.rest.get(`/api/v1/balance/${remote.nativeAccounts[0]!.base58}`)).Result as { main: string }).main)
    expect(grant).toBe(main * 5000 * 5)
  })

  it('the fork answers the offset at the storage key too, and a local transfer grants and moves it on the fork only', async () => {
    const b58 = remote.nativeAccounts[0]!.base58
    expect((await fork.rest.get(`/api/v1/storage/${MAIN_CONTRACT}/${offsetKey(remote, 0)}`)).Result).toBe('e8030000')
    const main = BigInt(((await fork.rest.get(`/api/v1/balance/${b58}`)).Result as { main: string }).main)
    const claimable = BigInt((await fork.rest.get(`/api/v1/unboundgas/${b58}`)).Result as string)
    // The grant, at the transfer's block time, counts from the remote's offset (1,000 s) and moves the offset there.
    await sendNative(fork, nativeTransfer(remote, 0, 2, 1))
    const now = Number(BigInt(((await fork.rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp)) - GENESIS
    expect((await fork.rest.get(`/api/v1/storage/${MAIN_CONTRACT}/${offsetKey(remote, 0)}`)).Result).toBe(Buffer.from(new Uint32Array([now]).buffer).toString('hex'))
    expect((await fork.rest.get(`/api/v1/grantgas/${b58}`)).Result).toBe('0')
    expect(BigInt((await fork.rest.get(`/api/v1/unboundgas/${b58}`)).Result as string)).toBe(claimable + main * BigInt(now - 1000) * 5n)
    // The remote keeps its offset.
    expect((await remote.rest.get(`/api/v1/storage/${MAIN_CONTRACT}/${offsetKey(remote, 0)}`)).Result).toBe('e8030000')
  })
})
