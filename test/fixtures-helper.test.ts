/**
 * loadFixture semantics (Hardhat's) and the `dualnet/vitest` per-file devnet.
 */
import { describe, expect, it } from 'vitest'
import { createDevnet, loadFixture, FixtureAnonymousFunctionError, type Devnet } from '../src/index.ts'
import { useDevnet } from '../src/vitest.ts'
import { Store } from '../fixtures/index.ts'

async function deployStore(devnet: Devnet): Promise<string> {
  const hash = await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, data: Store.bytecode, gas: '0x100000' }])
  return ((await devnet.rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string }).contractAddress
}

describe('loadFixture', () => {
  it('runs the fixture once, then reverts to its snapshot on every later call', async () => {
    const devnet = await createDevnet({ accounts: 1 })
    let runs = 0
    async function fixture(d: Devnet) {
      runs++
      return deployStore(d)
    }
    const first = await loadFixture(devnet, fixture)
    await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: first, data: '0xd09de08a' }])
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x2')
    for (let i = 0; i < 3; i++) {
      expect(await loadFixture(devnet, fixture)).toBe(first)
      expect(await devnet.rpc('eth_blockNumber')).toBe('0x1')
      expect(await devnet.rpc('eth_getStorageAt', [first, '0x0', 'latest'])).toBe('0x')
      await devnet.mine()
    }
    expect(runs).toBe(1)
    await expect(loadFixture(devnet, async () => 1)).rejects.toBeInstanceOf(FixtureAnonymousFunctionError)
    await devnet.close()
  })
})

describe('dualnet/vitest', () => {
  const net = useDevnet({ accounts: 2 })

  it('gives the file a devnet', async () => {
    await deployStore(net.devnet)
    expect(await net.devnet.rpc('eth_blockNumber')).toBe('0x1')
  })

  it('reverts it between tests', async () => {
    expect(await net.devnet.rpc('eth_blockNumber')).toBe('0x0')
  })
})
