/**
 * JSON-RPC over WebSocket on the listen() port (issue 10): real clients (ethers
 * WebSocketProvider, viem's webSocket transport) and a raw `ws` client for the
 * protocol: batches, push subscriptions (newHeads, logs, newPendingTransactions),
 * interval-, bulk- and native-mined blocks, evm_revert, reset, close frames, many
 * clients and no leaked handles.
 */
import { Contract, ContractFactory, getAddress, Wallet, WebSocketProvider, type InterfaceAbi } from 'ethers'
import { createPublicClient, createWalletClient, defineChain, webSocket, type Abi, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import { Token } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'
import { CHAIN_ID, EVENTUALLY, SUPPLY, TRANSFER_TOPIC, addressTopic, sendNativeTransfer } from './support.ts'
import { chainOf } from '../src/devnet/provider.ts'

type Json = Record<string, any>

/** A raw WebSocket JSON-RPC client: answers by id, notifications by subscription, close code. */
class Client {
  readonly ws: WebSocket
  readonly notifications: { subscription: string; result: any }[] = []
  readonly closed: Promise<number>
  readonly #answers = new Map<number | string, (value: Json) => void>()
  #waiters: (() => void)[] = []
  #nextId = 1

  private constructor(ws: WebSocket) {
    this.ws = ws
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)))
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as Json | Json[]
      if (Array.isArray(message)) this.#answers.get('batch')?.({ batch: message })
      else if (message.method === 'eth_subscription') this.notifications.push(message.params)
      else this.#answers.get(message.id)?.(message)
      for (const wake of this.#waiters.splice(0)) wake()
    })
  }

  static async open(url: string): Promise<Client> {
    const ws = new WebSocket(url)
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    return new Client(ws)
  }

  /** The response object to one request. */
  call(method: string, params: unknown[] = []): Promise<Json> {
    const id = this.#nextId++
    const answer = new Promise<Json>((resolve) => this.#answers.set(id, resolve))
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    return answer
  }

  /** The result of one request; throws on an error response. */
  async result(method: string, params: unknown[] = []): Promise<any> {
    const response = await this.call(method, params)
    if (response.error !== undefined) throw new Error(`${method}: ${JSON.stringify(response.error)}`)
    return response.result
  }

  /** Sends a raw frame expecting an array answer. */
  batch(text: string): Promise<Json[]> {
    const answer = new Promise<Json>((resolve) => this.#answers.set('batch', resolve))
    this.ws.send(text)
    return answer.then((a) => a.batch as Json[])
  }

  /** The results notified for `subscription` once there are `count` of them. */
  async results(subscription: string, count: number): Promise<any[]> {
    const of = () => this.notifications.filter((n) => n.subscription === subscription).map((n) => n.result)
    while (of().length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve))
    return of()
  }

  close(): Promise<number> {
    this.ws.close()
    return this.closed
  }
}

/** Lets messages in flight arrive (loopback round trips). */
const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms))

let devnet: Devnet
let wsUrl: string

beforeEach(async () => {
  devnet = await createDevnet({ accounts: 3, nativeAccounts: 1 })
  const { rpcUrl } = await devnet.listen({ rest: false })
  wsUrl = rpcUrl.replace('http://', 'ws://')
})

afterEach(async () => {
  vi.useRealTimers()
  await devnet.close()
})

describe('ethers WebSocketProvider', () => {
  it('getBlockNumber, a block listener, contract.on(Transfer) once per event, removeAllListeners then silence', async () => {
    const provider = new WebSocketProvider(wsUrl, undefined, { staticNetwork: true, cacheTimeout: -1 })
    try {
      expect(await provider.getBlockNumber()).toBe(0)
      const wallet = new Wallet(devnet.accounts[0]!.privateKey, provider)
      const factory = new ContractFactory(Token.abi as InterfaceAbi, Token.bytecode, wallet)
      const token = (await (await factory.deploy('Test Token', 'TST', SUPPLY)).waitForDeployment()) as Contract
      expect(await provider.getBlockNumber()).toBe(1)

      const blocks: number[] = []
      const transfers: [string, string, bigint][] = []
      await provider.on('block', (n: number) => blocks.push(n))
      await token.on('Transfer', (from: string, to: string, value: bigint) => transfers.push([from, to, value]))
      await settle()
      const [a, b] = [devnet.accounts[1]!.address, devnet.accounts[2]!.address]
      await (await token.getFunction('transfer')(a, 5n)).wait()
      await (await token.getFunction('transfer')(b, 7n)).wait()
      await devnet.mine(2)
      await vi.waitFor(() => expect(blocks).toEqual([2, 3, 4, 5]), EVENTUALLY)
      await vi.waitFor(() => expect(transfers).toHaveLength(2), EVENTUALLY)
      await settle()
      expect(transfers).toEqual([
        [wallet.address, getAddress(a), 5n],
        [wallet.address, getAddress(b), 7n],
      ])

      // After removeAllListeners the node is told (eth_unsubscribe) and pushes nothing more.
      await provider.removeAllListeners()
      await token.removeAllListeners()
      await settle()
      let pushed = 0
      ;(provider.websocket as unknown as WebSocket).on('message', (data) => {
        if (String(data).includes('eth_subscription')) pushed++
      })
      await (await token.getFunction('transfer')(a, 1n)).wait()
      await devnet.mine(3)
      await settle(100)
      expect(pushed).toBe(0)
      expect(blocks).toEqual([2, 3, 4, 5])
      expect(transfers).toHaveLength(2)
    } finally {
      await provider.destroy()
    }
  })
})

describe('viem webSocket transport', () => {
  it('watchBlockNumber and watchContractEvent push over eth_subscribe; unwatch stops them', async () => {
    const chain = defineChain({
      id: CHAIN_ID,
      name: 'dualnet',
      nativeCurrency: { name: 'Gas', symbol: 'GAS', decimals: 18 },
      rpcUrls: { default: { http: [wsUrl.replace('ws', 'http')], webSocket: [wsUrl] } },
      fees: { baseFeeMultiplier: 1 },
    })
    const transport = webSocket(wsUrl, { keepAlive: false, reconnect: false })
    const client = createPublicClient({ chain, transport })
    const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(devnet.accounts[0]!.privateKey) })
    try {
      const hash = await wallet.deployContract({ abi: Token.abi as Abi, bytecode: Token.bytecode, args: ['T', 'T', SUPPLY] })
      const { contractAddress } = await client.waitForTransactionReceipt({ hash })
      const numbers: bigint[] = []
      const logs: { to: string; value: bigint }[] = []
      const unwatchBlocks = client.watchBlockNumber({ onBlockNumber: (n) => numbers.push(n) })
      const unwatchLogs = client.watchContractEvent({
        address: contractAddress!,
        abi: Token.abi as Abi,
        eventName: 'Transfer',
        onLogs: (batch) => logs.push(...batch.map((l) => (l as unknown as { args: { to: string; value: bigint } }).args)),
      })
      await settle()
      const to = devnet.accounts[1]!.address as Address
      await wallet.writeContract({ address: contractAddress!, abi: Token.abi as Abi, functionName: 'transfer', args: [to, 9n], chain })
      await devnet.mine(1)
      await vi.waitFor(() => expect(numbers).toEqual([2n, 3n]), EVENTUALLY)
      await vi.waitFor(() => expect(logs).toHaveLength(1), EVENTUALLY)
      expect(logs[0]!.value).toBe(9n)
      expect(logs[0]!.to).toBe(to)

      unwatchBlocks()
      unwatchLogs()
      await settle()
      await wallet.writeContract({ address: contractAddress!, abi: Token.abi as Abi, functionName: 'transfer', args: [to, 1n], chain })
      await devnet.mine(2)
      await settle(100)
      expect(numbers).toEqual([2n, 3n])
      expect(logs).toHaveLength(1)
    } finally {
      ;(await transport({ chain }).value!.getRpcClient()).close()
    }
  })
})

describe('the protocol, with a raw ws client', () => {
  it('every method and batches over the socket; a bad frame is a parse error; eth_subscribe over HTTP is refused', async () => {
    const c = await Client.open(wsUrl)
    expect(await c.result('eth_chainId')).toBe('0x3039')
    const batch = await c.batch(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
        { jsonrpc: '2.0', id: 2, method: 'eth_nope' },
        { jsonrpc: '2.0', method: 'eth_blockNumber' },
      ]),
    )
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x0' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } },
    ])
    const parseError = new Promise((resolve) => c.ws.once('message', (data) => resolve(JSON.parse(String(data)))))
    c.ws.send('{not json')
    expect(await parseError).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
    expect((await c.call('eth_subscribe', ['syncing'])).error).toEqual({ code: -32601, message: 'no "syncing" subscription in eth namespace' })
    expect((await c.call('eth_unsubscribe', ['0x1234'])).error).toEqual({ code: -32000, message: 'subscription not found' })
    expect((await c.call('eth_subscribe', ['logs', { address: '0x12' }])).error?.code).toBe(-32602)
    await c.close()

    const http = await fetch(wsUrl.replace('ws', 'http'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }),
    })
    expect(await http.json()).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'notifications not supported' } })
  })

  it('newHeads: headers as eth_getBlockByNumber renders them, without transactions; every mining path notifies, in order', async () => {
    const c = await Client.open(wsUrl)
    const heads = await c.result('eth_subscribe', ['newHeads'])
    expect(heads).toMatch(/^0x[0-9a-f]{32}$/)
    // A transaction block (automine), a bulk-mined run, a native-transaction block, interval mining.
    await c.result('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: '0x1' }])
    await c.result('hardhat_mine', ['0x3'])
    await sendNativeTransfer(devnet)
    await c.result('evm_setIntervalMining', [20])
    const got = await c.results(heads, 6)
    await c.result('evm_setIntervalMining', [0])
    expect(got.slice(0, 6).map((h) => Number(h.number))).toEqual([1, 2, 3, 4, 5, 6])
    for (const head of got.slice(0, 6)) {
      const { transactions, ...rest } = await c.result('eth_getBlockByNumber', [head.number, false])
      expect(head).toEqual(rest)
      expect(transactions).toBeInstanceOf(Array)
    }
    expect(got[0]!.gasUsed).toBe('0x5208')
    await c.close()
  })

  it('bulk-mined empty blocks are built only for a newHeads subscriber, one notification per block', async () => {
    await devnet.rpc('hardhat_mine', ['0x3e8'])
    expect(chainOf(devnet).isPendingEmpty(1000)).toBe(true)
    const c = await Client.open(wsUrl)
    const logs = await c.result('eth_subscribe', ['logs', {}])
    await devnet.rpc('hardhat_mine', ['0x3e8'])
    await settle()
    // A logs subscription alone does not build them.
    expect(chainOf(devnet).isPendingEmpty(2000)).toBe(true)
    expect(c.notifications.filter((n) => n.subscription === logs)).toEqual([])
    const heads = await c.result('eth_subscribe', ['newHeads'])
    await devnet.rpc('hardhat_mine', ['0x64', '0xa'])
    const got = await c.results(heads, 100)
    expect(got.map((h) => Number(h.number))).toEqual(Array.from({ length: 100 }, (_, i) => 2001 + i))
    expect(Number(got[99].timestamp) - Number(got[0].timestamp)).toBe(990)
    expect(chainOf(devnet).isPendingEmpty(2100)).toBe(false)
    await c.close()
  })

  it('logs: address and topic filters with eth_getLogs rules, one notification per log; newPendingTransactions: hashes', async () => {
    const c = await Client.open(wsUrl)
    const [from, to] = [devnet.accounts[0]!.address, devnet.accounts[1]!.address]
    const token = await deployToken(c)
    const all = await c.result('eth_subscribe', ['logs', { address: token }])
    const toB = await c.result('eth_subscribe', ['logs', { address: [token, to], topics: [TRANSFER_TOPIC, null, [addressTopic(to)]] }])
    const other = await c.result('eth_subscribe', ['logs', { address: to }])
    const pending = await c.result('eth_subscribe', ['newPendingTransactions'])
    await c.result('evm_setAutomine', [false])
    const h1 = await transfer(c, token, to, 5n)
    const h2 = await transfer(c, token, devnet.accounts[2]!.address, 6n)
    await c.result('evm_mine')
    const logs = await c.results(all, 2)
    expect(await c.results(pending, 2)).toEqual([h1, h2])
    expect(await c.results(toB, 1)).toEqual([logs[0]])
    const block = await c.result('eth_getBlockByNumber', ['latest', false])
    expect(logs).toEqual(await c.result('eth_getLogs', [{ blockHash: block.hash, address: token }]))
    expect(logs[0]).toMatchObject({ address: token, topics: [TRANSFER_TOPIC, addressTopic(from), addressTopic(to)], transactionHash: h1, blockHash: block.hash, removed: false })
    await settle()
    expect(c.notifications.filter((n) => n.subscription === other)).toEqual([])
    expect(c.notifications.filter((n) => n.subscription === toB)).toHaveLength(1)

    expect(await c.result('eth_unsubscribe', [all])).toBe(true)
    expect((await c.call('eth_unsubscribe', [all])).error).toEqual({ code: -32000, message: 'subscription not found' })
    await c.result('evm_setAutomine', [true])
    await transfer(c, token, to, 1n)
    await c.results(toB, 2)
    expect(c.notifications.filter((n) => n.subscription === all)).toHaveLength(2)
    await c.close()
  })

  it('after evm_revert newHeads continues from the restored head; a reset reports the fresh genesis and goes on', async () => {
    const c = await Client.open(wsUrl)
    const heads = await c.result('eth_subscribe', ['newHeads'])
    const snapshot = await c.result('evm_snapshot')
    await c.result('hardhat_mine', ['0x3'])
    await c.results(heads, 3)
    expect(await c.result('evm_revert', [snapshot])).toBe(true)
    await c.result('evm_mine')
    const afterRevert = await c.results(heads, 4)
    expect(afterRevert.map((h) => Number(h.number))).toEqual([1, 2, 3, 1])
    expect(afterRevert[3].hash).toBe((await c.result('eth_getBlockByNumber', ['0x1', false])).hash)

    expect(await c.result('hardhat_reset')).toBe(true)
    expect(await c.result('eth_blockNumber')).toBe('0x0')
    // The HTTP side of the same server sees the fresh chain too.
    const http = await fetch(wsUrl.replace('ws', 'http'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' })
    expect(await http.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' })
    await c.result('evm_mine')
    const afterReset = await c.results(heads, 6)
    expect(afterReset.slice(4).map((h) => Number(h.number))).toEqual([0, 1])
    expect(afterReset[4].hash).toBe((await c.result('eth_getBlockByNumber', ['earliest', false])).hash)
    expect(afterReset[5].parentHash).toBe(afterReset[4].hash)
    await c.close()
  })

  it('a subscription idle far beyond 5 minutes still delivers (and so does a filter with nothing to collect meanwhile)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const c = await Client.open(wsUrl)
    const heads = await c.result('eth_subscribe', ['newHeads'])
    const filter = await c.result('eth_newBlockFilter')
    vi.setSystemTime(Date.now() + 60 * 60 * 1000)
    await c.result('evm_increaseTime', [3600])
    await c.result('evm_mine')
    expect((await c.results(heads, 1)).map((h) => h.number)).toEqual(['0x1'])
    expect(await c.result('eth_getFilterChanges', [filter])).toHaveLength(1)
    await c.close()
  })

  it('close() sends every socket a normal close frame (1000); a client that leaves loses its subscriptions', async () => {
    const [a, b] = await Promise.all([Client.open(wsUrl), Client.open(wsUrl)])
    await a.result('eth_subscribe', ['newHeads'])
    const kept = await b.result('eth_subscribe', ['newHeads'])
    await a.close()
    await devnet.mine(1)
    await b.results(kept, 1)
    expect(a.notifications).toEqual([])
    await devnet.close()
    expect(await b.closed).toBe(1000)
  })
})

describe('many clients', () => {
  it('200 clients subscribed, 100 blocks: each gets every head in order; all leave and no handle is left', async () => {
    const before = process.getActiveResourcesInfo().length
    const clients = await Promise.all(Array.from({ length: 200 }, () => Client.open(wsUrl)))
    const ids = await Promise.all(clients.map((c) => c.result('eth_subscribe', ['newHeads'])))
    for (let i = 0; i < 100; i++) await devnet.mine(1)
    const expected = Array.from({ length: 100 }, (_, i) => `0x${(i + 1).toString(16)}`)
    for (const [i, c] of clients.entries()) expect((await c.results(ids[i], 100)).map((h) => h.number)).toEqual(expected)
    await Promise.all(clients.map((c) => c.close()))
    await settle()
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(before)
    // Their subscriptions went with them: a new subscriber is alone.
    const last = await Client.open(wsUrl)
    const id = await last.result('eth_subscribe', ['newHeads'])
    await devnet.mine(1)
    expect((await last.results(id, 1)).map((h) => h.number)).toEqual(['0x65'])
    await last.close()
  })
})

async function deployToken(c: Client): Promise<string> {
  const data = new ContractFactory(Token.abi as InterfaceAbi, Token.bytecode).interface.encodeDeploy(['T', 'T', SUPPLY])
  const hash = await c.result('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, data: Token.bytecode + data.slice(2), gas: '0x2dc6c0' }])
  return (await c.result('eth_getTransactionReceipt', [hash])).contractAddress
}

async function transfer(c: Client, token: string, to: string, amount: bigint): Promise<string> {
  const data = new Contract(token, Token.abi as InterfaceAbi).interface.encodeFunctionData('transfer', [to, amount])
  return c.result('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: token, data, gas: '0x186a0' }])
}
