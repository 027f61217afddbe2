/**
 * Polling filters (reference §6.2: go-ethereum-like) and what they enable: ethers'
 * contract event listeners over HTTP.
 */
import { BrowserProvider, Contract, JsonRpcProvider, Wallet, type Eip1193Provider, type InterfaceAbi, type JsonRpcPayload, type JsonRpcResult } from 'ethers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'
import { Store } from '../fixtures/index.ts'
import { EVENTUALLY, TRANSFER_TOPIC } from './support.ts'

let devnet: Devnet
let store: string

async function send(to: string | undefined, data: string, value = 0n): Promise<string> {
  return await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to, data, value: `0x${value.toString(16)}`, gas: '0x100000' }])
}

beforeEach(async () => {
  devnet = await createDevnet({ accounts: 2 })
  const hash = await send(undefined, Store.bytecode)
  store = ((await devnet.rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string }).contractAddress
})
afterEach(async () => {
  await devnet.close()
})

const increment = '0xd09de08a'
const deposit = '0xd0e30db0'

describe('polling filters', () => {
  it('a block filter reports each new block hash once', async () => {
    const id = await devnet.rpc('eth_newBlockFilter')
    expect(await devnet.rpc('eth_getFilterChanges', [id])).toEqual([])
    await devnet.mine(2)
    const hashes = [2, 3].map(async (n) => (await devnet.rpc('eth_getBlockByNumber', [`0x${n}`, false]))!.hash)
    expect(await devnet.rpc('eth_getFilterChanges', [id])).toEqual(await Promise.all(hashes))
    expect(await devnet.rpc('eth_getFilterChanges', [id])).toEqual([])
  })

  it('a log filter reports matching logs of later blocks once, and eth_getFilterLogs the whole range', async () => {
    await send(store, increment)
    const id = await devnet.rpc('eth_newFilter', [{ address: store, fromBlock: '0x0' }])
    await send(store, increment)
    await send(store, deposit, 5n)
    const changes = (await devnet.rpc('eth_getFilterChanges', [id])) as { address: string; blockNumber: string }[]
    // Block 3: Incremented(2); block 4: Deposited (the 0x…02 value log is another address).
    expect(changes.map((l) => [l.address, l.blockNumber])).toEqual([
      [store, '0x3'],
      [store, '0x4'],
    ])
    expect(await devnet.rpc('eth_getFilterChanges', [id])).toEqual([])
    const all = (await devnet.rpc('eth_getFilterLogs', [id])) as unknown[]
    expect(all.length).toBe(3)
  })

  it('a log filter by topic sees the synthetic value-transfer logs', async () => {
    const id = await devnet.rpc('eth_newFilter', [{ topics: [TRANSFER_TOPIC] }])
    await send(store, deposit, 7n)
    const [log] = (await devnet.rpc('eth_getFilterChanges', [id])) as { address: string; data: string }[]
    expect(log!.address).toBe('0x0000000000000000000000000000000000000002')
    expect(BigInt(log!.data)).toBe(7n)
  })

  it('a pending-transaction filter reports accepted transaction hashes', async () => {
    const id = await devnet.rpc('eth_newPendingTransactionFilter')
    const hash = await send(store, increment)
    expect(await devnet.rpc('eth_getFilterChanges', [id])).toEqual([hash])
    expect(await devnet.rpc('eth_getFilterChanges', [id])).toEqual([])
  })

  it('uninstalls, and answers unknown ids with -32000 filter not found', async () => {
    const id = await devnet.rpc('eth_newBlockFilter')
    expect(await devnet.rpc('eth_uninstallFilter', [id])).toBe(true)
    expect(await devnet.rpc('eth_uninstallFilter', [id])).toBe(false)
    await expect(devnet.rpc('eth_getFilterChanges', [id])).rejects.toMatchObject({ code: -32000, message: 'filter not found' })
  })
})

const FIVE_MINUTES = 5 * 60 * 1000

describe('filter expiry: 5 minutes from the first change a filter has not collected', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('a filter on a quiet chain lives on, however long it is not polled', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const blocks = await devnet.rpc('eth_newBlockFilter')
    const pending = await devnet.rpc('eth_newPendingTransactionFilter')
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000)
    await devnet.mine(1)
    const hash = await send(store, increment)
    expect(await devnet.rpc('eth_getFilterChanges', [blocks])).toHaveLength(2)
    expect(await devnet.rpc('eth_getFilterChanges', [pending])).toEqual([hash])
  })

  it("a filter that leaves a change uncollected for 5 minutes expires, as go-ethereum's", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const blocks = await devnet.rpc('eth_newBlockFilter')
    const pending = await devnet.rpc('eth_newPendingTransactionFilter')
    await devnet.mine(1)
    vi.setSystemTime(Date.now() + FIVE_MINUTES - 1000)
    expect(await devnet.rpc('eth_getFilterChanges', [blocks])).toHaveLength(1)
    await send(store, increment)
    vi.setSystemTime(Date.now() + FIVE_MINUTES - 1000)
    expect(await devnet.rpc('eth_getFilterChanges', [blocks])).toHaveLength(1)
    vi.setSystemTime(Date.now() + 2000)
    // The pending filter left the transaction uncollected for 5 minutes; the block filter collected its block in time.
    await expect(devnet.rpc('eth_getFilterChanges', [pending])).rejects.toMatchObject({ code: -32000, message: 'filter not found' })
    expect(await devnet.rpc('eth_getFilterChanges', [blocks])).toEqual([])
  })

  it('ethers BrowserProvider: contract.on survives a quiet devnet longer than 5 minutes (hardhat#2053)', async () => {
    // The devnet as ethers' EIP-1193 provider, noting when ethers has installed its filter
    // and whether it has read the block number since it last collected the filter: after
    // each collection ethers starts a new block poller, whose first answer is only its
    // starting point, so a block mined before that answer is never announced to the filter.
    let filterInstalled = false
    let pollerStarted = false
    const eip1193: Eip1193Provider = {
      request: async (args) => {
        const result = await devnet.request(args as Parameters<typeof devnet.request>[0])
        noteFilterPolling(args.method)
        return result
      },
    }
    const noteFilterPolling = (method: string) => {
      if (method === 'eth_newFilter') filterInstalled = true
      if (method === 'eth_getFilterChanges') pollerStarted = false
      if (method === 'eth_blockNumber') pollerStarted = true
    }
    const provider = new BrowserProvider(eip1193, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 })
    const contract = new Contract(store, ['event Deposited(address indexed from, uint256 amount)'], provider)
    const amounts: bigint[] = []
    await contract.on('Deposited', (_from: string, amount: bigint) => amounts.push(amount))
    // The filter starts at the block current when it is installed, and ethers collects it
    // when its block poller, started after the first collection, sees a new block: send only
    // once both have happened (a fixed sleep is not enough on a busy machine).
    await vi.waitFor(() => expect(filterInstalled && pollerStarted).toBe(true), EVENTUALLY)
    await send(store, deposit, 5n)
    await vi.waitFor(() => expect(amounts).toEqual([5n]), EVENTUALLY)
    await vi.waitFor(() => expect(pollerStarted).toBe(true), EVENTUALLY)
    // Ten quiet minutes on the filters' clock (only Date is faked: ethers keeps polling).
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 10 * 60 * 1000)
    await send(store, deposit, 6n)
    await vi.waitFor(() => expect(amounts).toEqual([5n, 6n]), EVENTUALLY)
    await contract.removeAllListeners()
    provider.destroy()
  })
})

describe('ethers event listeners over HTTP', () => {
  it('contract.on delivers events as blocks are mined', async () => {
    // As above: the transaction goes out once ethers has installed its filter, collected it
    // once and started the block poller that triggers the next collection (seen on the
    // provider's own requests; a fixed sleep is not enough on a busy machine).
    let filterInstalled = false
    let pollerStarted = false
    class WatchedProvider extends JsonRpcProvider {
      override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
        const results = await super._send(payload)
        for (const { method } of [payload].flat()) {
          if (method === 'eth_newFilter') filterInstalled = true
          if (method === 'eth_getFilterChanges') pollerStarted = false
          if (method === 'eth_blockNumber') pollerStarted = true
        }
        return results
      }
    }
    const provider = new WatchedProvider((await devnet.listen()).rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 })
    provider.pollingInterval = 20
    const wallet = new Wallet(devnet.accounts[1]!.privateKey, provider)
    const contract = new Contract(store, Store.abi as InterfaceAbi, wallet)
    const seen = new Promise<bigint>((resolve) => {
      void contract.on('Incremented', (count: bigint) => resolve(count))
    })
    await vi.waitFor(() => expect(filterInstalled && pollerStarted).toBe(true), EVENTUALLY)
    await (await contract.getFunction('increment')()).wait()
    expect(await seen).toBe(1n)
    await contract.removeAllListeners()
    provider.destroy()
  })
})

describe('a closed devnet', () => {
  it('rejects every call with EIP-1193 4900', async () => {
    await devnet.close()
    await expect(devnet.rpc('eth_blockNumber')).rejects.toBeInstanceOf(RpcError)
    await expect(devnet.request({ method: 'eth_blockNumber' })).rejects.toMatchObject({ code: 4900 })
  })
})
