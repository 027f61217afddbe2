/**
 * Every helper of @nomicfoundation/hardhat-network-helpers 1.x (Hardhat 2), the real
 * package, against dualnet: over HTTP through a Hardhat 2 runtime whose `dualnet`
 * network points at a listening devnet (test/hardhat/hardhat.config.cjs), and in
 * process with `hre.network.provider` set to the devnet's EIP-1193 provider. Each
 * helper first asks web3_clientVersion and refuses a node that does not answer
 * `HardhatNetwork…`, `zksync…` or `anvil…`; the `clientVersion: 'node'` devnet is
 * refused so. The README's "Hardhat network helpers" table lists these cases.
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Contract, getAddress, Interface, type InterfaceAbi } from 'ethers'
import { createDevnet, InvalidOptionError, VERSION, type Devnet } from '../src/index.ts'
import { BlockEnv, BlockGate } from '../fixtures/index.ts'

const require = createRequire(import.meta.url)
type Helpers = typeof import('@nomicfoundation/hardhat-network-helpers')
interface Hre {
  network: { name: string; provider: { request(args: { method: string; params?: unknown[] }): Promise<unknown> } }
  ethers: typeof import('ethers') & { getSigner(address: string): Promise<import('ethers').Signer> }
}

/** The devnet the Hardhat project's `dualnet` network points at, started before Hardhat loads its config. */
let httpDevnet: Devnet
let hre: Hre
let helpers: Helpers
let httpProvider: Hre['network']['provider']

beforeAll(async () => {
  // Shanghai: the hardfork on which every block-setting helper applies (BASEFEE from London, PREVRANDAO from the merge).
  httpDevnet = await createDevnet({ console: false, hardfork: 'shanghai' })
  process.env.DUALNET_RPC_URL = (await httpDevnet.listen({ rest: false })).rpcUrl
  process.env.HARDHAT_CONFIG = fileURLToPath(new URL('./hardhat/hardhat.config.cjs', import.meta.url))
  process.env.HARDHAT_NETWORK = 'dualnet'
  hre = require('hardhat') as Hre
  helpers = require('@nomicfoundation/hardhat-network-helpers') as Helpers
  httpProvider = hre.network.provider
}, 120_000)

afterAll(async () => {
  await httpDevnet?.close()
})

const ALICE = '0x00000000000000000000000000000000000a11ce'
const BOB = '0x0000000000000000000000000000000000000b0b'

describe.each(['HTTP', 'in process'] as const)('hardhat-network-helpers 1.x %s', (how) => {
  let devnet: Devnet
  /** What the helpers talk to, read back directly. */
  const rpc = (method: string, params: unknown[] = []) => devnet.rpcUntyped(method, params)
  const height = async () => Number(await rpc('eth_blockNumber'))
  const block = async (tag = 'latest') => (await rpc('eth_getBlockByNumber', [tag, false])) as { number: string; timestamp: string }

  beforeAll(async () => {
    if (how === 'HTTP') {
      devnet = httpDevnet
      hre.network.provider = httpProvider
    } else {
      devnet = await createDevnet({ console: false, hardfork: 'shanghai' })
      hre.network.provider = devnet
    }
  })
  afterAll(async () => {
    if (how === 'in process') await devnet.close()
    hre.network.provider = httpProvider
  })

  it('passes the identification check (web3_clientVersion)', async () => {
    expect(await hre.network.provider.request({ method: 'web3_clientVersion' })).toBe(`HardhatNetwork/dualnet/v${VERSION}`)
    await expect(helpers.time.latestBlock()).resolves.toBe(await height())
  })

  it('mine and mineUpTo (hardhat_mine), with an interval', async () => {
    const start = await block()
    await helpers.mine(3, { interval: 10 })
    expect(await height()).toBe(Number(start.number) + 3)
    expect(Number((await block()).timestamp)).toBe(Number((await block(`0x${(Number(start.number) + 1).toString(16)}`)).timestamp) + 20)
    await helpers.mineUpTo(Number(start.number) + 10)
    expect(await height()).toBe(Number(start.number) + 10)
  })

  it('time.latest (eth_getBlockByNumber), time.latestBlock (eth_blockNumber), time.duration', async () => {
    expect(await helpers.time.latest()).toBe(Number((await block()).timestamp))
    expect(await helpers.time.latestBlock()).toBe(await height())
    expect(helpers.time.duration.days(2)).toBe(172_800)
  })

  it('time.increase, time.increaseTo, time.setNextBlockTimestamp (evm_setNextBlockTimestamp, hardhat_mine)', async () => {
    const start = Number((await block()).timestamp)
    expect(await helpers.time.increase(100)).toBe(start + 100)
    expect(Number((await block()).timestamp)).toBe(start + 100)
    await helpers.time.increaseTo(start + 1000)
    expect(Number((await block()).timestamp)).toBe(start + 1000)
    await helpers.time.setNextBlockTimestamp(start + 2000)
    await helpers.mine()
    expect(Number((await block()).timestamp)).toBe(start + 2000)
  })

  it('time.advanceBlock and time.advanceBlockTo (hardhat_mine)', async () => {
    const start = await height()
    expect(await helpers.time.advanceBlock(2)).toBe(start + 2)
    await helpers.time.advanceBlockTo(start + 5)
    expect(await height()).toBe(start + 5)
  })

  it('setBalance, setCode, setNonce, setStorageAt and getStorageAt (hardhat_set*, eth_getStorageAt)', async () => {
    await helpers.setBalance(ALICE, 10n ** 18n)
    expect(await rpc('eth_getBalance', [ALICE, 'latest'])).toBe('0xde0b6b3a7640000')
    await helpers.setCode(ALICE, '0x600160005260206000f3')
    expect(await rpc('eth_getCode', [ALICE, 'latest'])).toBe('0x600160005260206000f3')
    await helpers.setNonce(ALICE, 7)
    expect(await rpc('eth_getTransactionCount', [ALICE, 'latest'])).toBe('0x7')
    await helpers.setStorageAt(ALICE, 3, 0x2a)
    expect(await helpers.getStorageAt(ALICE, 3)).toBe(`0x${'2a'.padStart(64, '0')}`)
  })

  it('impersonateAccount and stopImpersonatingAccount (hardhat_*): eth_sendTransaction as an account without its key', async () => {
    await helpers.setBalance(BOB, 10n ** 18n)
    await helpers.impersonateAccount(BOB)
    const hash = await hre.network.provider.request({ method: 'eth_sendTransaction', params: [{ from: BOB, to: ALICE, value: '0x1' }] })
    expect(((await rpc('eth_getTransactionReceipt', [hash])) as { status: string }).status).toBe('0x1')
    await helpers.stopImpersonatingAccount(BOB)
    await expect(rpc('eth_sendTransaction', [{ from: BOB, to: ALICE, value: '0x1' }])).rejects.toThrow(`unknown account ${BOB}`)
  })

  it('takeSnapshot and loadFixture (evm_snapshot, evm_revert)', async () => {
    const snapshot = await helpers.takeSnapshot()
    const start = await height()
    await helpers.mine(4)
    await snapshot.restore()
    expect(await height()).toBe(start)
    let runs = 0
    async function fixture() {
      runs++
      await helpers.mine(2)
      return { at: await height() }
    }
    const first = await helpers.loadFixture(fixture)
    await helpers.mine(5)
    expect(await helpers.loadFixture(fixture)).toEqual(first)
    expect(await height()).toBe(first.at)
    expect(runs).toBe(1)
    helpers.clearSnapshots()
  })

  it('dropTransaction (hardhat_dropTransaction)', async () => {
    await rpc('evm_setAutomine', [false])
    const from = devnet.accounts[1]!.address
    const hash = (await rpc('eth_sendTransaction', [{ from, to: ALICE, value: '0x1' }])) as string
    expect(await helpers.dropTransaction(hash)).toBe(true)
    expect(await rpc('eth_getTransactionByHash', [hash])).toBeNull()
    await rpc('evm_setAutomine', [true])
  })

  // Hardhat's block settings: what the EVM of the next block reads (BlockEnv.read() at
  // `pending`), on a Shanghai devnet, where BASEFEE and PREVRANDAO exist.
  it('setCoinbase, setBlockGasLimit, setNextBlockBaseFeePerGas, setPrevRandao: the next block reads them', async () => {
    const from = devnet.accounts[0]!.address
    const deploy = (await rpc('eth_sendTransaction', [{ from, data: BlockEnv.bytecode }])) as string
    const address = ((await rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress
    const envAbi = new Interface(BlockEnv.abi as InterfaceAbi)
    const read = async () => envAbi.decodeFunctionResult('read', (await rpc('eth_call', [{ to: address, data: envAbi.encodeFunctionData('read') }, 'pending'])) as string)
    await helpers.setCoinbase(ALICE)
    await helpers.setBlockGasLimit(30_000_000)
    await helpers.setNextBlockBaseFeePerGas(7)
    await helpers.setPrevRandao(0x1234)
    expect(await rpc('eth_coinbase')).toBe(ALICE)
    expect([...(await read())]).toEqual([getAddress(ALICE), 30_000_000n, 7n, 0x1234n])
    // The base fee and PREVRANDAO were the next block's only.
    await helpers.mine()
    expect([...(await read())]).toEqual([getAddress(ALICE), 30_000_000n, 0n, 0n])
  })

  it('reset (hardhat_reset): back to genesis', async () => {
    await helpers.mine(2)
    await helpers.reset()
    expect(await height()).toBe(0)
  })
})

describe('a Hardhat suite over HTTP: helpers, then hardhat-ethers, which estimates every transaction', () => {
  /** BlockGate(opensAt, opensAtBlock) deployed with hardhat-ethers by dev account 0. */
  async function deployGate(opensAt: number, opensAtBlock: number) {
    const signer = await hre.ethers.getSigner(httpDevnet.accounts[0]!.address)
    const factory = new hre.ethers.ContractFactory(BlockGate.abi as InterfaceAbi, BlockGate.bytecode, signer)
    const gate = await factory.deploy(opensAt, opensAtBlock)
    await gate.waitForDeployment()
    return gate as Contract
  }

  it('sends right after time.increaseTo(t, false): estimated in the block it lands in', async () => {
    const opensAt = (await helpers.time.latest()) + 3600
    const gate = await deployGate(opensAt, 0)
    await helpers.time.setNextBlockTimestamp(opensAt) // time.increaseTo without mining
    const receipt = await (await gate.getFunction('enter')()).wait()
    expect(receipt?.status).toBe(1)
    expect(await helpers.time.latest()).toBe(opensAt)
  })

  it('sends right after mineUpTo the block before a start block (a Governor vote at its snapshot)', async () => {
    const opensAtBlock = (await helpers.time.latestBlock()) + 5
    const gate = await deployGate(0, opensAtBlock)
    await helpers.mineUpTo(opensAtBlock - 1)
    const receipt = await (await gate.getFunction('enter')()).wait()
    expect(receipt?.status).toBe(1)
    expect(receipt?.blockNumber).toBe(opensAtBlock)
  })
})

describe("clientVersion: 'node'", () => {
  it('answers the real node’s Ontology-<version>, and every helper refuses the devnet', async () => {
    const devnet = await createDevnet({ clientVersion: 'node', console: false })
    try {
      expect(await devnet.rpc('web3_clientVersion')).toBe(`Ontology-v${VERSION}-dualnet`)
      expect((await devnet.rest.get('/api/v1/version')).Result).toBe(`v${VERSION}-dualnet`)
      // A fresh copy of the helpers: they cache the answer of their first check.
      for (const key of Object.keys(require.cache)) if (key.includes('hardhat-network-helpers')) delete require.cache[key]
      const fresh = require('@nomicfoundation/hardhat-network-helpers') as Helpers
      hre.network.provider = devnet
      await expect(fresh.mine()).rejects.toThrow(`You are connected to 'dualnet', whose identifier is 'Ontology-v${VERSION}-dualnet'`)
      expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
    } finally {
      hre.network.provider = httpProvider
      await devnet.close()
    }
  })

  it('refuses another value, naming the option', async () => {
    await expect(createDevnet({ clientVersion: 'anvil' as never })).rejects.toThrow(new InvalidOptionError('clientVersion', 'anvil', "'hardhat' or 'node'"))
  })
})
