/**
 * The answer profile (options/profile.ts): `profile: 'ethereum'` sets every switch to
 * the answers of go-ethereum, Hardhat and Anvil, a switch given alone wins, and the
 * node's answers stay the default. The empty-slot answer is checked in process and
 * over HTTP, through ethers and viem, which read it as a 32-byte word.
 */
import { JsonRpcProvider } from 'ethers'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet, type DevnetOptions } from '../src/index.ts'
import { dualnetProvider } from '../src/ethers.ts'
import { devnetTransport } from '../src/viem.ts'

const CONTRACT = '0x00000000000000000000000000000000000c0de1'
const ZERO_WORD = `0x${'0'.repeat(64)}`
const ONE_WORD = `0x${'0'.repeat(63)}1`

/** A devnet with `options` whose slot 1 was set and cleared, and slot 2 never set. */
async function devnetWith(options: DevnetOptions): Promise<Devnet> {
  const devnet = await createDevnet({ console: false, ...options })
  await devnet.rpc('hardhat_setCode', [CONTRACT, '0x00'])
  await devnet.rpc('hardhat_setStorageAt', [CONTRACT, '0x1', ONE_WORD])
  await devnet.rpc('hardhat_setStorageAt', [CONTRACT, '0x1', ZERO_WORD])
  return devnet
}

describe('emptyStorage: a slot that holds nothing', () => {
  const cases: [string, DevnetOptions, string][] = [
    ['the default (the node)', {}, '0x'],
    ["profile 'ethereum'", { profile: 'ethereum' }, ZERO_WORD],
    ["emptyStorage 'ethereum' alone", { emptyStorage: 'ethereum' }, ZERO_WORD],
    ["profile 'ethereum' with emptyStorage 'node' (the switch wins)", { profile: 'ethereum', emptyStorage: 'node' }, '0x'],
  ]
  for (const [name, options, answer] of cases) {
    it(`${name}: a cleared and a never-set slot answer ${answer === '0x' ? '"0x"' : '32 zero bytes'}, in process and over HTTP`, async () => {
      const devnet = await devnetWith(options)
      try {
        const { rpcUrl } = await devnet.listen()
        for (const slot of ['0x1', '0x2']) {
          expect(await devnet.rpc('eth_getStorageAt', [CONTRACT, slot, 'latest'])).toBe(answer)
          const response = await fetch(rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getStorageAt', params: [CONTRACT, slot, 'latest'] }),
          })
          expect(((await response.json()) as { result: string }).result).toBe(answer)
        }
        expect(await devnet.rpc('eth_getStorageAt', [CONTRACT, '0x0', 'latest'])).toBe(answer)
      } finally {
        await devnet.close()
      }
    })
  }
})

describe("profile 'ethereum' through the clients", () => {
  let devnet: Devnet
  let rpcUrl: string
  beforeAll(async () => {
    devnet = await devnetWith({ profile: 'ethereum' })
    rpcUrl = (await devnet.listen()).rpcUrl
  })
  afterAll(() => devnet.close())

  it('ethers reads the cleared slot as a zero word, in process and over HTTP', async () => {
    expect(await dualnetProvider(devnet).getStorage(CONTRACT, 1)).toBe(ZERO_WORD)
    const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true })
    expect(await provider.getStorage(CONTRACT, 1)).toBe(ZERO_WORD)
    expect(BigInt(await provider.getStorage(CONTRACT, 2))).toBe(0n)
    provider.destroy()
  })

  it('viem reads it as a zero word, in process and over HTTP', async () => {
    for (const transport of [devnetTransport(devnet), http(rpcUrl)]) {
      const client = createPublicClient({ transport })
      expect(await client.getStorageAt({ address: CONTRACT, slot: '0x1' })).toBe(ZERO_WORD)
    }
  })

  it('sets blockContext too: a call at block N sees NUMBER N', async () => {
    await devnet.mine(3)
    const height = await devnet.rpc('eth_blockNumber')
    // NUMBER; PUSH1 0; MSTORE; PUSH1 32; PUSH1 0; RETURN
    const number = await devnet.rpc('eth_call', [{ data: '0x4360005260206000f3' }, height])
    expect(BigInt(number)).toBe(BigInt(height))
  })
})

describe("without a profile, blockContext stays the node's", () => {
  it('a call at block N sees NUMBER N (the node gives the latest height as NUMBER as well) with the timestamp + 1', async () => {
    const devnet = await createDevnet({ console: false })
    try {
      await devnet.mine(2)
      const latest = (await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!
      // TIMESTAMP; PUSH1 0; MSTORE; PUSH1 32; PUSH1 0; RETURN
      const timestamp = await devnet.rpc('eth_call', [{ data: '0x4260005260206000f3' }, latest.number])
      expect(BigInt(timestamp)).toBe(BigInt(latest.timestamp) + 1n)
    } finally {
      await devnet.close()
    }
  })
})
