/**
 * eth_simulateV1 (execution-apis; go-ethereum internal/ethapi/simulate.go) through
 * viem's `simulateBlocks` and `simulateCalls`, in process (`custom(devnet)`) and over
 * HTTP: state carried from call to call and block to block, state and block overrides,
 * validation, the chain's gas-token Transfer logs as the transfer logs, full
 * transactions; go-ethereum's answer shape; the spec's error codes; refusals of what
 * the chain cannot take; and nothing of it outliving the request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, custom, encodeFunctionData, http, type Abi, type Address, type PublicClient } from 'viem'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Reverter, Store } from '../fixtures/index.ts'
import { GAS_TOKEN, GOVERNANCE, GWEI, TRANSFER_TOPIC, addressTopic } from './support.ts'
import { forkedHistory, rawRpc, STRANGER, type ForkedHistory } from './fork-support.ts'

const STORE: Address = '0x0000000000000000000000000000000000005707'
const REVERTER: Address = '0x000000000000000000000000000000000000dead'
const FRESH: Address = '0x00000000000000000000000000000000000000aa'
const storeAbi = Store.abi as Abi
const reverterAbi = Reverter.abi as Abi

let devnet: Devnet
let rpcUrl: string
let clients: [string, PublicClient][]

beforeAll(async () => {
  devnet = await createDevnet({ console: false })
  ;({ rpcUrl } = await devnet.listen())
  await devnet.mine(2)
  clients = [
    ['in process', createPublicClient({ transport: custom(devnet) }) as PublicClient],
    ['over HTTP', createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) }) as PublicClient],
  ]
})

afterAll(async () => {
  await devnet?.close()
})

/** What the simulations could have touched, read before and after: it must not move. */
async function stateOf(): Promise<unknown[]> {
  return Promise.all([
    devnet.rpc('eth_blockNumber', []),
    devnet.rpc('eth_getCode', [STORE, 'latest']),
    devnet.rpc('eth_getStorageAt', [STORE, '0x0', 'latest']),
    devnet.rpc('eth_getBalance', [FRESH, 'latest']),
    devnet.rpc('eth_getBalance', [devnet.accounts[0]!.address, 'latest']),
    devnet.rpc('eth_getTransactionCount', [devnet.accounts[0]!.address, 'latest']),
  ])
}

async function rpcError(method: string, params: unknown[]): Promise<{ code: number; message: string; data?: unknown }> {
  const answer = JSON.parse(await rawRpc(rpcUrl, method, params)) as { error?: { code: number; message: string } }
  expect(answer.error).toBeDefined()
  return answer.error!
}

describe('eth_simulateV1 through viem simulateBlocks', () => {
  it('carries state from call to call and block to block under state and block overrides; nothing outlives it', async () => {
    const before = await stateOf()
    for (const [, client] of clients) {
      const blocks = await client.simulateBlocks({
        blocks: [
          {
            stateOverrides: [{ address: STORE, code: Store.deployedBytecode }],
            calls: [
              { to: STORE, abi: storeAbi, functionName: 'increment' },
              { to: STORE, abi: storeAbi, functionName: 'increment' },
              { to: STORE, abi: storeAbi, functionName: 'count' },
            ],
          },
          {
            // viem pairs answer blocks with the blocks asked by position: no gap here (gaps: the raw test below).
            blockOverrides: { time: 2_000_000_000n },
            calls: [
              { to: STORE, abi: storeAbi, functionName: 'count' },
              { to: STORE, abi: storeAbi, functionName: 'blockInfo' },
            ],
          },
        ],
      })
      // Block 0: the overridden code runs, the second increment sees the first.
      expect(blocks[0]!.calls.map((c) => c.status)).toEqual(['success', 'success', 'success'])
      expect(blocks[0]!.calls[2]!.result).toBe(2n)
      // Block 1 sees block 0's writes, at the time asked.
      const height = BigInt(await devnet.rpc('eth_blockNumber', []))
      const last = blocks[1]!
      expect(blocks[0]!.number).toBe(height + 1n)
      expect(last.number).toBe(height + 2n)
      expect(last.timestamp).toBe(2_000_000_000n)
      expect(last.calls[0]!.result).toBe(2n)
      const info = last.calls[1]!.result as readonly [bigint, bigint, ...unknown[]]
      expect(info[0]).toBe(height + 2n)
      expect(info[1]).toBe(2_000_000_000n)
      // The Incremented events, in the block's log order.
      expect(blocks[0]!.calls[1]!.logs?.[0]?.logIndex).toBe(1)
    }
    expect(await stateOf()).toEqual(before)
  })

  it('fills a gap in the block numbers with empty blocks 12 s apart, as go-ethereum does (raw)', async () => {
    const height = Number(await devnet.rpc('eth_blockNumber', []))
    const answer = (await devnet.rpc('eth_simulateV1', [
      { blockStateCalls: [{ calls: [] }, { blockOverrides: { number: `0x${(height + 5).toString(16)}` }, calls: [{ to: FRESH }] }] },
    ] as never)) as unknown as { number: string; timestamp: string; parentHash: string; hash: string; calls: unknown[] }[]
    expect(answer.map((b) => Number(b.number))).toEqual([1, 2, 3, 4, 5].map((n) => height + n))
    expect(answer.map((b) => b.calls.length)).toEqual([0, 0, 0, 0, 1])
    for (let i = 1; i < answer.length; i++) {
      expect(answer[i]!.parentHash).toBe(answer[i - 1]!.hash)
      expect(BigInt(answer[i]!.timestamp) - BigInt(answer[i - 1]!.timestamp)).toBe(12n)
    }
  })

  it('gives the chain gas-token Transfer logs as the transfer logs (traceTransfers), value and fee', async () => {
    const from = devnet.accounts[0]!.address as Address
    for (const [, client] of clients) {
      const blocks = await client.simulateBlocks({
        traceTransfers: true,
        blocks: [{ calls: [{ account: from, to: FRESH, value: 5n, gasPrice: GWEI }] }],
      })
      const logs = blocks[0]!.calls[0]!.logs!
      expect(logs.map((l) => [l.address.toLowerCase(), l.topics[0], l.topics[1], l.topics[2], BigInt(l.data)])).toEqual([
        [GAS_TOKEN, TRANSFER_TOPIC, addressTopic(from), addressTopic(FRESH), 5n],
        // The fee: 21,000 gas at 1 gwei to governance (reference §6.4), last.
        [GAS_TOKEN, TRANSFER_TOPIC, addressTopic(from), addressTopic(GOVERNANCE), 21_000n * GWEI],
      ])
      expect(blocks[0]!.gasUsed).toBe(21_000n)
    }
  })

  it('reports a revert per call with its data and reason, and later calls still run', async () => {
    for (const [, client] of clients) {
      const blocks = await client.simulateBlocks({
        blocks: [
          {
            stateOverrides: [{ address: REVERTER, code: Reverter.deployedBytecode }],
            calls: [
              { to: REVERTER, abi: reverterAbi, functionName: 'revertWithReason' },
              { to: REVERTER, abi: reverterAbi, functionName: 'setValue', args: [7n] },
            ],
          },
        ],
      })
      const [reverted, ok] = blocks[0]!.calls
      expect(reverted!.status).toBe('failure')
      expect(String(reverted!.error)).toMatch(/reverted/)
      expect(ok!.status).toBe('success')
    }
  })

  it('validation: a nonce ahead of the sender is -38011, a nonce behind -38010; without validation the nonce is not checked', async () => {
    const from = devnet.accounts[0]!.address
    const nonce = Number(await devnet.rpc('eth_getTransactionCount', [from, 'latest']))
    const high = await rpcError('eth_simulateV1', [{ validation: true, blockStateCalls: [{ calls: [{ from, to: FRESH, nonce: `0x${(nonce + 5).toString(16)}` }] }] }])
    expect(high.code).toBe(-38011)
    expect(high.message).toMatch(/nonce too high/)
    const low = await rpcError('eth_simulateV1', [{ validation: true, blockStateCalls: [{ stateOverrides: { [from]: { nonce: '0x9' } }, calls: [{ from, to: FRESH, nonce: '0x1' }] }] }])
    expect(low.code).toBe(-38010)
    // Without validation the nonce is not checked: the sender's runs.
    const [block] = (await devnet.rpc('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, to: FRESH, nonce: '0x63' }] }] }] as never)) as unknown as [{ calls: { status: string }[] }]
    expect(block.calls[0]!.status).toBe('0x1')
    // Through viem: the spec's code reaches the caller.
    const client = clients[0]![1]
    await expect(client.simulateBlocks({ validation: true, blocks: [{ calls: [{ account: from as Address, to: FRESH, nonce: nonce + 5 }] }] })).rejects.toThrow(/nonce too high/)
  })

  it('an unfunded sender is -38014, too little gas -38013, a block number or time out of order -38020 / -38021', async () => {
    expect((await rpcError('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: FRESH, to: STORE, value: '0x1' }] }] }])).code).toBe(-38014)
    expect((await rpcError('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: FRESH, to: STORE, gas: '0x5000' }] }] }])).code).toBe(-38013)
    const height = Number(await devnet.rpc('eth_blockNumber', []))
    const number = await rpcError('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: `0x${height.toString(16)}` } }] }])
    expect(number.code).toBe(-38020)
    const time = await rpcError('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { time: '0x10' } }, { blockOverrides: { time: '0x10' } }] }])
    expect(time.code).toBe(-38021)
    expect((await rpcError('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: '0xffff' } }] }])).code).toBe(-38026)
    // Gas above the chain's 6,000,000 per transaction: refused under validation, capped without (as eth_call).
    const over = { from: devnet.accounts[0]!.address, to: FRESH, gas: '0x7a1200' }
    expect((await rpcError('eth_simulateV1', [{ validation: true, blockStateCalls: [{ calls: [over] }] }])).code).toBe(-38015)
    const [capped] = (await devnet.rpc('eth_simulateV1', [{ returnFullTransactions: true, blockStateCalls: [{ calls: [over] }] }] as never)) as unknown as { transactions: { gas: string }[] }[]
    expect(BigInt(capped!.transactions[0]!.gas)).toBe(6_000_000n)
  })
})

describe('eth_simulateV1 through viem simulateCalls', () => {
  it('runs calls in order for an account under a state override, with the transfer logs', async () => {
    for (const [, client] of clients) {
      const { results } = await client.simulateCalls({
        account: FRESH,
        stateOverrides: [
          { address: FRESH, balance: 10n ** 18n },
          { address: STORE, code: Store.deployedBytecode },
        ],
        calls: [
          { to: STORE, abi: storeAbi, functionName: 'deposit', value: 100n },
          { to: STORE, abi: storeAbi, functionName: 'balances', args: [FRESH] },
          { to: STORE, data: encodeFunctionData({ abi: storeAbi, functionName: 'count' }) },
        ],
      })
      expect(results.map((r) => r.status)).toEqual(['success', 'success', 'success'])
      expect(results[1]!.result).toBe(100n)
      const transfer = results[0]!.logs!.find((l) => l.address.toLowerCase() === GAS_TOKEN)!
      expect(transfer.topics).toEqual([TRANSFER_TOPIC, addressTopic(FRESH), addressTopic(STORE)])
      expect(BigInt(transfer.data)).toBe(100n)
    }
  })
})

describe('eth_simulateV1 answer shape and refusals', () => {
  it('answers go-ethereum shape: block fields, calls with returnData/logs/gasUsed/status, full transactions when asked', async () => {
    const from = devnet.accounts[1]!.address
    const answer = (await devnet.rpc('eth_simulateV1', [{ returnFullTransactions: true, blockStateCalls: [{ calls: [{ from, to: FRESH, value: '0x2' }] }] }, 'latest'] as never)) as unknown as Record<
      string,
      unknown
    >[]
    expect(answer).toHaveLength(1)
    const block = answer[0]!
    for (const key of ['number', 'hash', 'parentHash', 'timestamp', 'gasLimit', 'gasUsed', 'miner', 'transactions', 'calls', 'logsBloom', 'stateRoot', 'transactionsRoot']) {
      expect(block).toHaveProperty(key)
    }
    const latest = (await devnet.rpc('eth_getBlockByNumber', ['latest', false])) as { hash: string; number: string }
    expect(block.parentHash).toBe(latest.hash)
    expect(BigInt(block.number as string)).toBe(BigInt(latest.number) + 1n)
    const [tx] = block.transactions as Record<string, string>[]
    expect(tx!.from).toBe(from.toLowerCase())
    expect(tx!.blockHash).toBe(block.hash)
    expect(tx!.type).toBe('0x0')
    const [call] = block.calls as Record<string, unknown>[]
    expect(Object.keys(call!).sort()).toEqual(['gasUsed', 'logs', 'returnData', 'status'])
    expect(call).toMatchObject({ returnData: '0x', gasUsed: '0x5208', status: '0x1' })
    // Hashes only by default.
    const [plain] = (await devnet.rpc('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, to: FRESH }] }] }] as never)) as unknown as { transactions: unknown[] }[]
    expect(typeof plain!.transactions[0]).toBe('string')
  })

  it('refuses what the chain cannot take with -32602 naming it, and changes nothing', async () => {
    const before = await stateOf()
    const cases: [unknown, RegExp][] = [
      [{ blockStateCalls: [] }, /empty input/],
      [{ blockStateCalls: [{ calls: [{ to: FRESH, maxFeePerGas: '0x1' }] }] }, /EIP-1559/],
      [{ blockStateCalls: [{ calls: [{ to: FRESH, accessList: [{ address: FRESH, storageKeys: [] }] }] }] }, /accessList is not supported/],
      [{ blockStateCalls: [{ calls: [{ to: FRESH, type: '0x2' }] }] }, /type "0x2" is not supported|type '0x2' is not supported|is not supported/],
      [{ blockStateCalls: [{ calls: [] }], extra: true }, /unknown field/],
      [{ blockStateCalls: [{ calls: [], other: 1 }] }, /unknown field/],
      [{ blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0x1' } }] }, /baseFeePerGas/],
      [{ blockStateCalls: [{ blockOverrides: { withdrawals: [] } }] }, /withdrawals/],
      [{ blockStateCalls: [{}], validation: 'yes' }, /validation/],
      [Object.assign(Object.create(null), { blockStateCalls: 1 }), /blockStateCalls/],
    ]
    for (const [opts, message] of cases) {
      const error = await rpcError('eth_simulateV1', [opts])
      expect(error.code, JSON.stringify(opts)).toBe(-32602)
      expect(error.message).toMatch(message)
    }
    await expect(devnet.rpc('eth_simulateV1', [Object.assign(Object.create(null), { blockStateCalls: 7 })] as never)).rejects.toThrow(/blockStateCalls/)
    // A price not in whole gwei: the chain's rule (reference §2.4), refused.
    await expect(devnet.rpc('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: FRESH, to: FRESH, gasPrice: '0x1' }] }] }] as never)).rejects.toThrow(/GWei/)
    expect(await stateOf()).toEqual(before)
  })
})

describe('eth_simulateV1 on a fork', () => {
  it('reads the remote state it has not fetched yet (a sender, a contract storage) above the fork block', async () => {
    const forked: ForkedHistory = await forkedHistory()
    const { fork, h } = forked
    try {
      await fork.mine()
      const balanceOf = `0x70a08231${STRANGER.slice(2).padStart(64, '0')}`
      const [block] = (await fork.rpc('eth_simulateV1', [
        {
          blockStateCalls: [
            {
              calls: [
                { from: h.token, to: h.token, data: balanceOf },
                { from: STRANGER, to: h.token, data: balanceOf },
              ],
            },
          ],
        },
        'latest',
      ] as never)) as unknown as { calls: { status: string; returnData: string }[] }[]
      expect(block!.calls.map((c) => c.status)).toEqual(['0x1', '0x1'])
      // The token transfer to STRANGER in the remote's block 2.
      expect(BigInt(block!.calls[0]!.returnData)).toBeGreaterThan(0n)
      expect(block!.calls[1]!.returnData).toBe(block!.calls[0]!.returnData)
      // Under validation the fetched token account is seen to hold code: not an EOA (-38024).
      const refused = JSON.parse(await rawRpc(forked.forkUrl, 'eth_simulateV1', [{ validation: true, blockStateCalls: [{ calls: [{ from: h.token, to: h.token }] }] }])) as { error: { code: number } }
      expect(refused.error.code).toBe(-38024)
    } finally {
      await forked.close()
    }
  }, 120_000)
})
