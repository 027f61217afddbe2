/**
 * Forking a live node, the EVM state (docs/fork.md): the remote is another dualnet on
 * a loopback port with a token deployed and balances set there. Every read through
 * the fork equals the remote's; local transactions change only the fork; a change on
 * the remote after a value was read is not seen (values are kept from first read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserProvider, Contract, ContractFactory, type InterfaceAbi } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Token } from '../fixtures/index.ts'

const STRANGER = '0x00000000000000000000000000000000c0ffee01'
const tokenAbi = Token.abi as InterfaceAbi

let remote: Devnet
let remoteUrl: string
let tokenAddress: string
let remoteHead: number

beforeAll(async () => {
  remote = await createDevnet({ chainId: 4242, console: false })
  remoteUrl = (await remote.listen()).rpcUrl
  const signer = await new BrowserProvider(remote, undefined, { cacheTimeout: -1 }).getSigner(0)
  const token = await new ContractFactory(tokenAbi, Token.bytecode, signer).deploy('Remote', 'RMT', 1_000_000n)
  await token.waitForDeployment()
  tokenAddress = await token.getAddress()
  await (await (token as Contract).transfer!(STRANGER, 250n)).wait()
  await remote.setBalance(STRANGER, { gas: 7n * 10n ** 18n })
  remoteHead = Number(await remote.rpc('eth_blockNumber'))
}, 120_000)

afterAll(async () => {
  await remote?.close()
})

describe('fork of a dualnet', () => {
  let fork: Devnet
  beforeAll(async () => {
    fork = await createDevnet({ fork: { url: remoteUrl }, console: false })
  }, 120_000)
  afterAll(async () => {
    await fork?.close()
  })

  it("takes the remote's chain id and net_version, and continues its chain from the fork block", async () => {
    expect(fork.chainId).toBe(4242)
    expect(await fork.rpc('eth_chainId')).toBe('0x1092')
    expect(await fork.rpc('net_version')).toBe('4242')
    expect(await fork.rpc('eth_blockNumber')).toBe(`0x${remoteHead.toString(16)}`)
    const remoteBlock = (await remote.rpc('eth_getBlockByNumber', ['latest', false]))!
    const forkBlock = (await fork.rpc('eth_getBlockByNumber', ['latest', false]))!
    expect(forkBlock.hash).toBe(remoteBlock.hash)
    await fork.mine()
    const next = (await fork.rpc('eth_getBlockByNumber', ['latest', false]))!
    expect(next.number).toBe(`0x${(remoteHead + 1).toString(16)}`)
    expect(next.parentHash).toBe(remoteBlock.hash)
    // The native view continues the same chain: height and previous-block hash (REST hashes are byte-reversed).
    const height = await fork.rest.get('/api/v1/block/height')
    expect(height.Result).toBe(remoteHead + 1)
    const header = await fork.rest.get(`/api/v1/block/details/height/${remoteHead + 1}`)
    const reversed = Buffer.from(remoteBlock.hash.slice(2), 'hex').reverse().toString('hex')
    expect((header.Result as { Header: { PrevBlockHash: string } }).Header.PrevBlockHash).toBe(reversed)
  })

  it("reads the remote's balances, nonces, code and storage", async () => {
    for (const [method, params] of [
      ['eth_getBalance', [STRANGER, 'latest']],
      ['eth_getTransactionCount', [remote.accounts[0]!.address, 'latest']],
      ['eth_getCode', [tokenAddress, 'latest']],
      ['eth_getStorageAt', [tokenAddress, '0x3', 'latest']],
    ] as const) {
      expect(await fork.rpc(method, [...params])).toBe(await remote.rpc(method, [...params]))
    }
    expect(await fork.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x6124fee993bc0000')
    const token = new Contract(tokenAddress, tokenAbi, new BrowserProvider(fork, undefined, { cacheTimeout: -1 }))
    expect(await token.balanceOf!(STRANGER)).toBe(250n)
    expect(await token.name!()).toBe('Remote')
    expect(await token.totalSupply!()).toBe(1_000_000n)
  })

  it('runs local transactions against the remote contracts, changing only the fork', async () => {
    // The remote's dev account 0 deployed the token; the fork's dev account 0 is the same key, funded locally.
    const signer = await new BrowserProvider(fork, undefined, { cacheTimeout: -1 }).getSigner(0)
    const token = new Contract(tokenAddress, tokenAbi, signer)
    const remoteNonce = await remote.rpc('eth_getTransactionCount', [remote.accounts[0]!.address, 'latest'])
    expect(await fork.rpc('eth_getTransactionCount', [fork.accounts[0]!.address, 'latest'])).toBe(remoteNonce)
    const receipt = await (await token.transfer!(STRANGER, 1000n)).wait()
    expect(receipt!.status).toBe(1)
    expect(await token.balanceOf!(STRANGER)).toBe(1250n)
    expect(await token.balanceOf!(fork.accounts[0]!.address)).toBe(1_000_000n - 250n - 1000n)
    const remoteToken = new Contract(tokenAddress, tokenAbi, new BrowserProvider(remote, undefined, { cacheTimeout: -1 }))
    expect(await remoteToken.balanceOf!(STRANGER)).toBe(250n)
    expect(await remote.rpc('eth_getTransactionCount', [remote.accounts[0]!.address, 'latest'])).toBe(remoteNonce)
    // A contract deployed on the fork gets a fresh address: the nonce continued the remote's.
    const deployed = await new ContractFactory(tokenAbi, Token.bytecode, signer).deploy('Local', 'LCL', 5n)
    await deployed.waitForDeployment()
    expect(await deployed.getAddress()).not.toBe(tokenAddress)
    expect(await remote.rpc('eth_getCode', [await deployed.getAddress(), 'latest'])).toBe('0x')
  })

  it('keeps a value from its first read: a later change on the remote is not seen', async () => {
    const probe = '0x00000000000000000000000000000000c0ffee02'
    await remote.setBalance(probe, { gas: 5n })
    expect(await fork.rpc('eth_getBalance', [probe, 'latest'])).toBe('0x5')
    await remote.setBalance(probe, { gas: 9n })
    expect(await fork.rpc('eth_getBalance', [probe, 'latest'])).toBe('0x5')
  })

  it('lets setters overlay remote values, and a snapshot revert restores them', async () => {
    const id = await fork.snapshot()
    await fork.rpc('hardhat_setStorageAt', [tokenAddress, '0x3', `0x${'00'.repeat(31)}07`])
    await fork.setBalance(STRANGER, { gas: 1n })
    expect(await fork.rpc('eth_getStorageAt', [tokenAddress, '0x3', 'latest'])).toBe(`0x${'00'.repeat(31)}07`)
    expect(await fork.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x1')
    expect(await fork.revert(id)).toBe(true)
    expect(await fork.rpc('eth_getStorageAt', [tokenAddress, '0x3', 'latest'])).toBe(await remote.rpc('eth_getStorageAt', [tokenAddress, '0x3', 'latest']))
    expect(await fork.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe('0x6124fee993bc0000')
  })
})
