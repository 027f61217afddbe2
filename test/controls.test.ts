/**
 * Test-harness controls (Hardhat Network / Anvil semantics): snapshots, time, mining
 * modes, state setters and impersonation, through the function-call API and the
 * JSON-RPC aliases.
 */
import { Wallet } from 'ethers'
import { MemoryLevel } from 'memory-level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Store } from '../fixtures/index.ts'
import { chainOf } from '../src/devnet/provider.ts'

let devnet: Devnet
const quantity = (n: bigint | number) => `0x${n.toString(16)}`

async function transfer(from: number, to: string, value: bigint, nonce?: number): Promise<string> {
  const wallet = new Wallet(devnet.accounts[from]!.privateKey)
  const raw = await wallet.signTransaction({
    type: 0,
    chainId: 12345,
    nonce: nonce ?? Number(await devnet.rpc('eth_getTransactionCount', [wallet.address, 'pending'])),
    to,
    value,
    gasLimit: 21_000n,
    gasPrice: 1_000_000_000n,
  })
  return await devnet.rpc('eth_sendRawTransaction', [raw])
}

async function view() {
  const [a, b] = [devnet.accounts[0]!.address, devnet.accounts[1]!.address]
  return {
    height: await devnet.rpc('eth_blockNumber'),
    balances: [await devnet.rpc('eth_getBalance', [a, 'latest']), await devnet.rpc('eth_getBalance', [b, 'latest'])],
    nonce: await devnet.rpc('eth_getTransactionCount', [a, 'latest']),
    latest: (await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.hash,
  }
}

beforeEach(async () => {
  devnet = await createDevnet({ accounts: 3 })
})
afterEach(async () => {
  await devnet.close()
})

describe('snapshot and revert', () => {
  it('restores balances, nonces, blocks and makes later transactions unknown', async () => {
    await transfer(0, devnet.accounts[1]!.address, 5n)
    const before = await view()
    const id = await devnet.snapshot()
    expect(id).toBe('0x1')
    const hash = await transfer(0, devnet.accounts[1]!.address, 7n)
    await devnet.mine(3)
    expect(await devnet.rpc('eth_getTransactionReceipt', [hash])).not.toBeNull()
    expect(await devnet.revert(id)).toBe(true)
    expect(await view()).toEqual(before)
    expect(await devnet.rpc('eth_getTransactionReceipt', [hash])).toBeNull()
    expect(await devnet.rpc('eth_getTransactionByHash', [hash])).toBeNull()
    // The chain goes on from the snapshot: the same nonce is usable again.
    await transfer(0, devnet.accounts[1]!.address, 9n)
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x2')
  })

  it('follows Hardhat over JSON-RPC: reverting invalidates the id and later ones; unknown ids answer false', async () => {
    const first = await devnet.rpc('evm_snapshot')
    await devnet.mine()
    const second = await devnet.rpc('evm_snapshot')
    await devnet.mine()
    expect(await devnet.rpc('evm_revert', [first])).toBe(true)
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
    expect(await devnet.rpc('evm_revert', [second])).toBe(false)
    expect(await devnet.rpc('evm_revert', [first])).toBe(false)
    expect(await devnet.rpc('evm_revert', ['0x99'])).toBe(false)
  })

  it('keeps a snapshot for repeated reverts on the function-call API', async () => {
    const id = await devnet.snapshot()
    for (let round = 0; round < 3; round++) {
      await transfer(0, devnet.accounts[2]!.address, 1n)
      expect(await devnet.rpc('eth_blockNumber')).toBe('0x1')
      expect(await devnet.revert(id, { keep: true })).toBe(true)
      expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
    }
  })

  it('restores code, storage, the pool, the clock and the mining mode', async () => {
    const contract = '0x00000000000000000000000000000000000000aa'
    const id = await devnet.snapshot()
    await devnet.setCode(contract, Store.deployedBytecode)
    await devnet.setStorageAt(contract, '0x0', `0x${'00'.repeat(31)}2a`)
    await devnet.setAutomine(false)
    await transfer(0, devnet.accounts[1]!.address, 1n)
    await devnet.increaseTime(1000)
    expect(((await devnet.rpc('eth_pendingTransactions')) as unknown[]).length).toBe(1)
    await devnet.revert(id)
    expect(await devnet.rpc('eth_getCode', [contract, 'latest'])).toBe('0x')
    expect(await devnet.rpc('eth_getStorageAt', [contract, '0x0', 'latest'])).toBe('0x')
    expect(await devnet.rpc('eth_pendingTransactions')).toBeNull()
    // Automine is back on: a send is mined at once.
    await transfer(0, devnet.accounts[1]!.address, 1n)
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x1')
    const block = (await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!
    expect(Number(block.timestamp)).toBeLessThan(Math.floor(Date.now() / 1000) + 500)
  })
})

describe('persistence across revert', () => {
  it('leaves the database as the chain is: reverted blocks, transactions and state removed', async () => {
    const db = new MemoryLevel<string, string>()
    const d = await createDevnet({ accounts: 2, db })
    const wallet = new Wallet(d.accounts[0]!.privateKey)
    const send = async (nonce: number) =>
      await d.rpc('eth_sendRawTransaction', [await wallet.signTransaction({ type: 0, chainId: 12345, nonce, to: d.accounts[1]!.address, value: 1n, gasLimit: 21_000n, gasPrice: 0n })])
    await send(0)
    const id = await d.snapshot()
    const reverted = await send(1)
    await d.setBalance(d.accounts[1]!.address, { gas: 1n })
    await d.revert(id)
    await d.close()
    await db.open()
    // Layout: persistence/schema.ts (state versions per height; the reverted height's are gone).
    expect(JSON.parse((await db.get('m:tip'))!).height).toBe(1)
    expect(await db.get('b:0000000002')).toBeUndefined()
    expect(await db.values({ gte: 'b:', lt: 'b;' }).all()).not.toContain(expect.stringContaining(reverted.slice(2)))
    const [sender, receiver] = d.accounts.map((a) => a.addressLower.slice(2))
    expect((await db.get(`a:${sender}:0000000001`))!.split(',')[0]).toBe('1')
    expect(await db.get(`a:${sender}:0000000002`)).toBeUndefined()
    expect((await db.get(`a:${receiver}:0000000001`))!.split(',')[1]).toBe(String(10_000n * 10n ** 18n + 1n))
    expect(await db.get(`a:${receiver}:0000000002`)).toBeUndefined()
    await db.close()
  })
})

describe('time', () => {
  it('increaseTime moves the next block forward, and TIMESTAMP follows', async () => {
    const t0 = Number((await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.timestamp)
    expect(await devnet.rpc('evm_increaseTime', [3600])).toBe(3600)
    await devnet.rpc('evm_mine')
    const t1 = Number((await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.timestamp)
    expect(t1 - t0).toBeGreaterThanOrEqual(3600)
    expect(t1 - t0).toBeLessThan(3600 + 30)
  })

  it('setNextBlockTimestamp sets the exact timestamp and refuses the past', async () => {
    const t0 = Number((await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.timestamp)
    await devnet.rpc('evm_setNextBlockTimestamp', [t0 + 1000])
    await devnet.mine()
    expect((await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.timestamp).toBe(quantity(t0 + 1000))
    await expect(devnet.rpc('evm_setNextBlockTimestamp', [t0])).rejects.toMatchObject({
      code: -32000,
      message: `Timestamp ${t0} is lower than or equal to previous block's timestamp ${t0 + 1000}`,
    })
    await expect(devnet.increaseTime(-5)).rejects.toThrow(/forward/)
    await expect(devnet.rpc('evm_increaseTime', [-5])).rejects.toMatchObject({ code: -32000 })
    await devnet.rpc('evm_mine', [t0 + 2000])
    expect((await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.timestamp).toBe(quantity(t0 + 2000))
  })

  it('a frozen clock makes runs reproducible', async () => {
    const run = async () => {
      const d = await createDevnet({ accounts: 2, clock: 'frozen', genesisTimestamp: 1_700_000_000 })
      await d.mine(3)
      const block = (await d.rpc('eth_getBlockByNumber', ['latest', false]))!
      await d.close()
      return block
    }
    const [a, b] = [await run(), await run()]
    expect(a).toEqual(b)
    expect(a.timestamp).toBe(quantity(1_700_000_003))
  })

  it('a stepped clock stamps each block step seconds after its parent', async () => {
    const d = await createDevnet({ accounts: 1, clock: { step: 12 }, genesisTimestamp: 1_700_000_000 })
    await d.mine(2)
    expect((await d.rpc('eth_getBlockByNumber', ['0x2', false]))!.timestamp).toBe(quantity(1_700_000_024))
    await d.close()
  })
})

describe('mining', () => {
  it('with automine off, queues transactions and mines them in nonce and fee order', async () => {
    await devnet.rpc('evm_setAutomine', [false])
    const to = devnet.accounts[2]!.address
    const b1 = await transfer(0, to, 1n, 1)
    const b0 = await transfer(0, to, 1n, 0)
    const wallet = new Wallet(devnet.accounts[1]!.privateKey)
    const rich = (await devnet.rpc('eth_sendRawTransaction', [
      await wallet.signTransaction({ type: 0, chainId: 12345, nonce: 0, to, value: 1n, gasLimit: 21_000n, gasPrice: 5_000_000_000n }),
    ])) as string
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
    await devnet.rpc('evm_mine')
    const block = (await devnet.rpc('eth_getBlockByNumber', ['0x1', false]))!
    expect(block.transactions).toEqual([rich, b0, b1])
  })

  it('hardhat_mine and anvil_mine mine n blocks spaced by the interval', async () => {
    const t0 = Number((await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.timestamp)
    expect(await devnet.rpc('hardhat_mine', ['0x64', '0xa'])).toBe(true)
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x64')
    const first = Number((await devnet.rpc('eth_getBlockByNumber', ['0x1', false]))!.timestamp)
    const last = Number((await devnet.rpc('eth_getBlockByNumber', ['0x64', false]))!.timestamp)
    expect(first).toBeGreaterThan(t0)
    expect(last - first).toBe(99 * 10)
    await devnet.rpc('anvil_mine', ['0x2'])
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x66')
  })

  it('mines long runs of empty blocks at once and builds them when needed', async () => {
    const before = await devnet.snapshot()
    const t0 = Number((await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!.timestamp)
    await devnet.mine(100_000, { interval: 2 })
    expect(await devnet.rpc('eth_blockNumber')).toBe(quantity(100_000))
    // State reads at any of those heights need no block built.
    expect(await devnet.rpc('eth_getBalance', [devnet.accounts[0]!.address, quantity(50_000)])).toBe(await devnet.rpc('eth_getBalance', [devnet.accounts[0]!.address, '0x0']))
    await devnet.revert(before)
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
    await devnet.mine(300)
    const b150 = (await devnet.rpc('eth_getBlockByNumber', [quantity(150), false]))!
    const b149 = (await devnet.rpc('eth_getBlockByNumber', [quantity(149), false]))!
    expect(b150.parentHash).toBe(b149.hash)
    expect(Number(b150.timestamp) - Number(b149.timestamp)).toBe(1)
    expect(Number(b149.timestamp)).toBeGreaterThan(t0)
    const hash = await transfer(0, devnet.accounts[1]!.address, 1n)
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash]))!
    expect(receipt.blockNumber).toBe(quantity(301))
    const tip = (await devnet.rpc('eth_getBlockByNumber', [quantity(301), false]))!
    expect(tip.parentHash).toBe((await devnet.rpc('eth_getBlockByNumber', [quantity(300), false]))!.hash)
  })

  it('interval mining mines on its own and stops', async () => {
    await devnet.rpc('evm_setIntervalMining', [20])
    await new Promise((resolve) => setTimeout(resolve, 150))
    const id = await devnet.snapshot()
    await devnet.setIntervalMining(0)
    const height = Number(await devnet.rpc('eth_blockNumber'))
    expect(height).toBeGreaterThanOrEqual(2)
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(Number(await devnet.rpc('eth_blockNumber'))).toBe(height)
    // A snapshot restores the mining settings too: interval mining runs again.
    await devnet.revert(id)
    for (let waited = 0; Number(await devnet.rpc('eth_blockNumber')) <= height && waited < 3000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(Number(await devnet.rpc('eth_blockNumber'))).toBeGreaterThan(height)
  })

  it('anvil_setBlockTimestampInterval spaces block timestamps', async () => {
    await devnet.rpc('anvil_setBlockTimestampInterval', [100])
    await devnet.mine(2)
    const [t1, t2] = await Promise.all(['0x1', '0x2'].map(async (n) => Number((await devnet.rpc('eth_getBlockByNumber', [n, false]))!.timestamp)))
    expect(t2! - t1!).toBe(100)
    expect(await devnet.rpc('anvil_removeBlockTimestampInterval')).toBe(true)
  })
})

describe('state setters', () => {
  const target = '0x1234567890123456789012345678901234567890'

  it('sets balances of both tokens, nonce, code and storage, through functions and aliases', async () => {
    await devnet.setBalance(target, { gas: 123n, main: 456n })
    expect(await devnet.rpc('eth_getBalance', [target, 'latest'])).toBe('0x7b')
    expect(chainOf(devnet).account(Uint8Array.from(Buffer.from(target.slice(2), 'hex'))).main).toBe(456n)
    // Hardhat's setters answer true, Anvil's null (foundry crates/anvil/src/eth/api.rs: `Result<()>`).
    for (const prefix of ['hardhat', 'anvil']) {
      const done = prefix === 'hardhat' ? true : null
      expect(await devnet.rpcUntyped(`${prefix}_setBalance`, [target, '0x3e8'])).toBe(done)
      expect(await devnet.rpcUntyped('eth_getBalance', [target, 'latest'])).toBe('0x3e8')
      expect(await devnet.rpcUntyped(`${prefix}_setNonce`, [target, '0x5'])).toBe(done)
      expect(await devnet.rpcUntyped('eth_getTransactionCount', [target, 'latest'])).toBe('0x5')
      expect(await devnet.rpcUntyped(`${prefix}_setCode`, [target, Store.deployedBytecode])).toBe(done)
      expect(await devnet.rpcUntyped('eth_getCode', [target, 'latest'])).toBe(Store.deployedBytecode)
      // anvil_setStorageAt answers true, as Hardhat's does.
      expect(await devnet.rpcUntyped(`${prefix}_setStorageAt`, [target, '0x0', `0x${'00'.repeat(31)}07`])).toBe(true)
      // Store.count() reads slot 0.
      expect(await devnet.rpc('eth_call', [{ to: target, data: '0x06661abd' }, 'latest'])).toBe(`0x${'00'.repeat(31)}07`)
    }
    expect(await devnet.rpc('dev_setMainBalance', [devnet.accounts[2]!.base58, '0x2a'])).toBe(true)
    expect(chainOf(devnet).account(Uint8Array.from(Buffer.from(devnet.accounts[2]!.address.slice(2), 'hex'))).main).toBe(42n)
  })

  it('takes Base58 addresses and refuses bad ones', async () => {
    await devnet.setBalance(devnet.accounts[1]!.base58, { gas: 1n })
    expect(await devnet.rpc('eth_getBalance', [devnet.accounts[1]!.address, 'latest'])).toBe('0x1')
    await expect(devnet.rpc('hardhat_setBalance', ['not-an-address', '0x1'])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.setBalance('0x12', { gas: 1n })).rejects.toThrow(/20-byte/)
  })

  it('impersonates an address for eth_sendTransaction', async () => {
    const whale = '0x00000000000000000000000000000000000b0b00'
    await devnet.setBalance(whale, { gas: 10n ** 20n })
    const tx = { from: whale, to: devnet.accounts[0]!.address, value: '0x64', gas: '0x5208' }
    await expect(devnet.rpc('eth_sendTransaction', [tx])).rejects.toMatchObject({ code: -32000 })
    expect(await devnet.rpc('hardhat_impersonateAccount', [whale])).toBe(true)
    const hash = await devnet.rpc('eth_sendTransaction', [tx])
    const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash]))!
    expect(receipt).toMatchObject({ from: whale, status: '0x1' })
    expect(await devnet.rpc('eth_getTransactionCount', [whale, 'latest'])).toBe('0x1')
    expect(await devnet.rpc('anvil_stopImpersonatingAccount', [whale])).toBeNull()
    await expect(devnet.rpc('eth_sendTransaction', [tx])).rejects.toMatchObject({ code: -32000 })
  })
})
