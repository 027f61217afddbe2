/**
 * Subscriptions without a socket (issue 10): the devnet as an EIP-1193 provider emits
 * `message` events for eth_subscribe, which web3.js consumes; ethers' BrowserProvider
 * and viem's custom transport do not use eth_subscribe at all (they poll
 * eth_blockNumber and filters), and work as they are. Plus reset() and idle
 * subscriptions.
 */
import { BrowserProvider, Contract, ContractFactory, getAddress, type Eip1193Provider, type InterfaceAbi } from 'ethers'
import { createPublicClient, createWalletClient, custom, defineChain, type Abi, type Address } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Web3 } from 'web3'
import { Token } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { CHAIN_ID, EVENTUALLY, INITIAL_BALANCE, SUPPLY } from './support.ts'
import { chainOf } from '../src/devnet/provider.ts'

let devnet: Devnet

beforeEach(async () => {
  devnet = await createDevnet({ accounts: 3, nativeAccounts: 0 })
})

afterEach(async () => {
  vi.useRealTimers()
  await devnet.close()
})

/** Notifications the devnet emitted as EIP-1193 'message' events. */
function messages(d: Devnet): { subscription: string; result: any }[] {
  const seen: { subscription: string; result: any }[] = []
  d.on('message', (message: { type: string; data: { subscription: string; result: unknown } }) => {
    expect(message.type).toBe('eth_subscription')
    seen.push(message.data)
  })
  return seen
}

async function deployToken(): Promise<string> {
  const data = new ContractFactory(Token.abi as InterfaceAbi, Token.bytecode).interface.encodeDeploy(['T', 'T', SUPPLY])
  const hash = await devnet.request({ method: 'eth_sendTransaction', params: [{ from: devnet.accounts[0]!.address, data: Token.bytecode + data.slice(2) }] })
  return ((await devnet.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string }).contractAddress
}

async function transfer(token: string, to: string, amount: bigint): Promise<void> {
  const data = new Contract(token, Token.abi as InterfaceAbi).interface.encodeFunctionData('transfer', [to, amount])
  await devnet.request({ method: 'eth_sendTransaction', params: [{ from: devnet.accounts[0]!.address, to: token, data }] })
}

describe('EIP-1193 message events', () => {
  it('under stateRoot merkle a head carries the root eth_getBlockByNumber answers, in order', async () => {
    const merkle = await createDevnet({ accounts: 2, nativeAccounts: 0, stateRoot: 'merkle' })
    try {
      const seen = messages(merkle)
      await merkle.request({ method: 'eth_subscribe', params: ['newHeads'] })
      await merkle.request({ method: 'eth_sendTransaction', params: [{ from: merkle.accounts[0]!.address, to: merkle.accounts[1]!.address, value: '0x1' }] })
      await merkle.mine(2)
      await vi.waitFor(() => expect(seen.map((m) => m.result.number)).toEqual(['0x1', '0x2', '0x3']), EVENTUALLY)
      for (const { result } of seen) {
        const block = (await merkle.rpc('eth_getBlockByNumber', [result.number, false])) as { stateRoot: string }
        expect(result.stateRoot).toBe(block.stateRoot)
        expect(result.stateRoot).not.toBe(`0x${'00'.repeat(32)}`)
      }
    } finally {
      await merkle.close()
    }
  })

  it('eth_subscribe through request() delivers { type: eth_subscription, data: { subscription, result } }; eth_unsubscribe stops it', async () => {
    const seen = messages(devnet)
    const id = (await devnet.request({ method: 'eth_subscribe', params: ['newHeads'] })) as string
    await devnet.mine(2)
    await vi.waitFor(() => expect(seen.map((m) => m.result.number)).toEqual(['0x1', '0x2']), EVENTUALLY)
    expect(seen.every((m) => m.subscription === id)).toBe(true)
    expect(seen[1]!.result).toEqual({ ...((await devnet.rpc('eth_getBlockByNumber', ['0x2', false])) as object), transactions: undefined })
    expect(await devnet.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true)
    await devnet.mine(1)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(seen).toHaveLength(2)
  })

  it('web3.js subscribes through the provider: newBlockHeaders and logs, then unsubscribe', async () => {
    const web3 = new Web3(devnet as never)
    const token = await deployToken()
    const heads: bigint[] = []
    const logs: string[] = []
    const headSub = await web3.eth.subscribe('newBlockHeaders')
    headSub.on('data', (h) => {
      heads.push(BigInt(h.number as bigint))
    })
    const logSub = await web3.eth.subscribe('logs', { address: token })
    logSub.on('data', (l) => {
      logs.push(String(l.transactionHash))
    })
    await transfer(token, devnet.accounts[1]!.address, 3n)
    await devnet.mine(1)
    await vi.waitFor(() => expect(heads).toEqual([2n, 3n]), EVENTUALLY)
    const receiptHash = (await devnet.rpc('eth_getBlockByNumber', ['0x2', false]))!.transactions[0]
    await vi.waitFor(() => expect(logs).toEqual([receiptHash]), EVENTUALLY)
    await headSub.unsubscribe()
    await logSub.unsubscribe()
    await transfer(token, devnet.accounts[1]!.address, 3n)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(heads).toEqual([2n, 3n])
    expect(logs).toHaveLength(1)
  })

  it('a subscription idle far beyond 5 minutes still delivers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const seen = messages(devnet)
    await devnet.request({ method: 'eth_subscribe', params: ['newHeads'] })
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000)
    await devnet.increaseTime(24 * 60 * 60)
    await devnet.mine(1)
    await vi.waitFor(() => expect(seen.map((m) => m.result.number)).toEqual(['0x1']), EVENTUALLY)
  })

  it('eth_subscribe over HTTP is refused; over the in-process provider eth_subscribe of an unknown kind is -32601', async () => {
    await expect(devnet.rpcUntyped('eth_subscribe', ['syncing'])).rejects.toMatchObject({ code: -32601, message: 'no "syncing" subscription in eth namespace' })
    await expect(devnet.rpcUntyped('eth_subscribe', [])).rejects.toMatchObject({ code: -32602 })
    await expect(devnet.rpc('eth_unsubscribe', ['0xabc'])).rejects.toMatchObject({ code: -32000, message: 'subscription not found' })
  })
})

describe('ethers BrowserProvider and viem custom transport (polling clients)', () => {
  it('ethers BrowserProvider: block listener and contract.on(Transfer) once per event, removeAllListeners stops them', async () => {
    const provider = new BrowserProvider(devnet as unknown as Eip1193Provider, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 })
    const token = new Contract(await deployToken(), Token.abi as InterfaceAbi, await provider.getSigner(0))
    const blocks: number[] = []
    const transfers: bigint[] = []
    await provider.on('block', (n: number) => blocks.push(n))
    await token.on('Transfer', (_from: string, _to: string, value: bigint) => transfers.push(value))
    // The first poll only takes the current block as its start.
    await new Promise((resolve) => setTimeout(resolve, 60))
    await transfer(String(token.target), devnet.accounts[1]!.address, 4n)
    await vi.waitFor(() => expect(blocks).toEqual([2]), EVENTUALLY)
    await transfer(String(token.target), devnet.accounts[2]!.address, 5n)
    await vi.waitFor(() => expect(transfers).toEqual([4n, 5n]), EVENTUALLY)
    await provider.removeAllListeners()
    await token.removeAllListeners()
    await transfer(String(token.target), devnet.accounts[2]!.address, 6n)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(transfers).toEqual([4n, 5n])
    expect(blocks).toEqual([2, 3])
    provider.destroy()
  })

  it('viem custom transport: watchBlockNumber and watchContractEvent, unwatch', async () => {
    const chain = defineChain({ id: CHAIN_ID, name: 'dualnet', nativeCurrency: { name: 'Gas', symbol: 'GAS', decimals: 18 }, rpcUrls: { default: { http: [] } } })
    const client = createPublicClient({ chain, transport: custom(devnet), pollingInterval: 20 })
    const wallet = createWalletClient({ chain, transport: custom(devnet), account: devnet.accounts[0]!.address as Address })
    const token = (await deployToken()) as Address
    const numbers: bigint[] = []
    const values: bigint[] = []
    const unwatchBlocks = client.watchBlockNumber({ onBlockNumber: (n) => numbers.push(n), emitOnBegin: true })
    const unwatchLogs = client.watchContractEvent({
      address: token,
      abi: Token.abi as Abi,
      eventName: 'Transfer',
      onLogs: (logs) => values.push(...logs.map((l) => (l as unknown as { args: { value: bigint } }).args.value)),
    })
    await vi.waitFor(() => expect(numbers).toEqual([1n]), EVENTUALLY)
    await new Promise((resolve) => setTimeout(resolve, 50))
    await wallet.writeContract({ address: token, abi: Token.abi as Abi, functionName: 'transfer', args: [devnet.accounts[1]!.address, 8n] })
    await vi.waitFor(() => expect(values).toEqual([8n]), EVENTUALLY)
    await vi.waitFor(() => expect(numbers).toEqual([1n, 2n]), EVENTUALLY)
    unwatchBlocks()
    unwatchLogs()
    await wallet.writeContract({ address: token, abi: Token.abi as Abi, functionName: 'transfer', args: [devnet.accounts[1]!.address, 9n] })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(values).toEqual([8n])
    expect(numbers).toEqual([1n, 2n])
  })
})

describe('reset', () => {
  it('devnet.reset(): fresh genesis with the creation options; snapshots, filters and impersonations dropped; subscriptions see the new head', async () => {
    const [a, b] = devnet.accounts.map((x) => x.address)
    const seen = messages(devnet)
    await devnet.request({ method: 'eth_subscribe', params: ['newHeads'] })
    await devnet.request({ method: 'eth_sendTransaction', params: [{ from: a, to: b, value: '0x64' }] })
    const snapshot = await devnet.snapshot()
    const filter = await devnet.rpc('eth_newBlockFilter')
    const stranger = '0x00000000000000000000000000000000000000aa'
    await devnet.impersonateAccount(stranger)
    await devnet.setAutomine(false)
    await devnet.mine(2)

    await devnet.reset()
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x0')
    expect(await devnet.rpcUntyped('eth_getBalance', [b, 'latest'])).toBe(`0x${INITIAL_BALANCE.toString(16)}`)
    expect(await devnet.rpcUntyped('eth_getTransactionCount', [a, 'latest'])).toBe('0x0')
    expect(await devnet.rpc('hardhat_getAutomine')).toBe(true)
    expect(await devnet.revert(snapshot)).toBe(false)
    await expect(devnet.rpc('eth_getFilterChanges', [filter])).rejects.toMatchObject({ message: 'filter not found' })
    await expect(devnet.rpc('eth_sendTransaction', [{ from: stranger, to: b }])).rejects.toMatchObject({ code: -32000 })
    expect(chainOf(devnet).height).toBe(0)
    expect((await devnet.rest.get('/api/v1/block/height')).Result).toBe(0)

    // The subscription stayed: the fresh genesis, then what follows it.
    expect(await devnet.rpc('anvil_reset', [])).toBeNull()
    await devnet.request({ method: 'eth_sendTransaction', params: [{ from: a, to: b, value: '0x1' }] })
    const genesis = (await devnet.rpc('eth_getBlockByNumber', ['earliest', false]))!
    await vi.waitFor(() => expect(seen.map((m) => m.result.number)).toEqual(['0x1', '0x2', '0x3', '0x0', '0x0', '0x1']), EVENTUALLY)
    expect(seen[4]!.result.hash).toBe(genesis.hash)
    expect(seen[5]!.result.parentHash).toBe(genesis.hash)
    await expect(devnet.rpcUntyped('hardhat_reset', [{ forking: { jsonRpcUrl: 'ftp://x' } }])).rejects.toMatchObject({ code: -32602 })
    expect(getAddress(a!)).toBe(getAddress(devnet.accounts[0]!.address))
  })
})
