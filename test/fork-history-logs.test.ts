/**
 * Logs across the fork point (docs/fork.md "History before the fork"): eth_getLogs and
 * eth_getFilterLogs over a range that spans the fork block answer the remote's logs up
 * to it (its answer to the same criteria, byte-equal) followed by the fork's own, in
 * block order; a blockHash filter goes to whichever side holds the block; the fork's
 * result limit counts both parts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Interface, type InterfaceAbi } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Token } from '../fixtures/index.ts'
import { forkedHistory, rawRpc, rpcResult, STRANGER, type ForkedHistory, type HistoryRemote } from './fork-support.ts'
import { addressTopic, TRANSFER_TOPIC, word } from './support.ts'

type Log = { blockNumber: string; address: string; data: string; topics: string[] }

let forked: ForkedHistory
let h: HistoryRemote
let fork: Devnet
let forkUrl: string

beforeAll(async () => {
  forked = await forkedHistory()
  ;({ h, fork, forkUrl } = forked)
  // Local blocks 6 and 7: a token transfer of the remote's token, then a value transfer.
  const from = fork.accounts[0]!.address
  const data = new Interface(Token.abi as InterfaceAbi).encodeFunctionData('transfer', [STRANGER, 1000n])
  await fork.rpc('eth_sendTransaction', [{ from, to: h.token, data, gas: '0x30d40' }])
  await fork.rpc('eth_sendTransaction', [{ from, to: STRANGER, value: '0x7', gas: '0x5208' }])
}, 120_000)

afterAll(async () => {
  await forked?.close()
})

describe('eth_getLogs across the fork block', () => {
  it('joins the remote’s logs up to the fork block and the fork’s after it, in block order', async () => {
    const all = await rpcResult<Log[]>(forkUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])
    const remotePart = await rawRpc(h.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x5' }])
    const localPart = await rpcResult<Log[]>(forkUrl, 'eth_getLogs', [{ fromBlock: '0x6', toBlock: 'latest' }])
    expect(JSON.stringify(all)).toBe(JSON.stringify([...JSON.parse(remotePart).result, ...localPart]))
    // The remote part, asked alone, is the remote's answer byte for byte.
    expect(await rawRpc(forkUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x5' }])).toBe(remotePart)
    const numbers = all.map((l) => Number(l.blockNumber))
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    expect(new Set(numbers)).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]))
    // The remote's block 6 (after the fork) is not the fork's: its logs are not among them.
    const remote6 = await rpcResult<Log[]>(h.url, 'eth_getLogs', [{ fromBlock: '0x6', toBlock: '0x6' }])
    expect(remote6.length).toBeGreaterThan(0)
    expect(all.filter((l) => l.blockNumber === '0x6')).toEqual(localPart.filter((l) => l.blockNumber === '0x6'))
  })

  it('passes the address and topics on to the remote part', async () => {
    const filter = { address: h.token, topics: [TRANSFER_TOPIC, null, addressTopic(STRANGER)] }
    const logs = await rpcResult<Log[]>(forkUrl, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', ...filter }])
    // 250 and 5 on the remote (blocks 2 and 5), 1000 on the fork (block 6).
    expect(logs.map((l) => [l.blockNumber, l.data])).toEqual([
      ['0x2', word(250n)],
      ['0x5', word(5n)],
      ['0x6', word(1000n)],
    ])
    const remotePart = await rawRpc(h.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5', ...filter }])
    expect(JSON.stringify(logs.slice(0, 2))).toBe(JSON.stringify(JSON.parse(remotePart).result))
    // Alternatives in a topic position and several addresses.
    const wide = { fromBlock: '0x0', toBlock: '0x5', address: [h.token, h.reverter], topics: [[TRANSFER_TOPIC, `0x${'00'.repeat(32)}`]] }
    expect(await rawRpc(forkUrl, 'eth_getLogs', [wide])).toBe(await rawRpc(h.url, 'eth_getLogs', [wide]))
  })

  it('answers a blockHash filter from the side that holds the block', async () => {
    for (const n of ['0x2', '0x5']) {
      const { hash } = (await rpcResult<{ hash: string }>(h.url, 'eth_getBlockByNumber', [n, false]))!
      expect(await rawRpc(forkUrl, 'eth_getLogs', [{ blockHash: hash }])).toBe(await rawRpc(h.url, 'eth_getLogs', [{ blockHash: hash }]))
    }
    const local = (await rpcResult<{ hash: string }>(forkUrl, 'eth_getBlockByNumber', ['0x6', false]))!
    const byHash = await rpcResult<Log[]>(forkUrl, 'eth_getLogs', [{ blockHash: local.hash }])
    expect(byHash).toEqual(await rpcResult(forkUrl, 'eth_getLogs', [{ fromBlock: '0x6', toBlock: '0x6' }]))
    expect(byHash.some((l) => l.data === word(1000n))).toBe(true)
  })

  it('answers eth_getFilterLogs of a filter over the fork block as eth_getLogs', async () => {
    const criteria = { fromBlock: '0x0', address: h.token }
    const id = await rpcResult<string>(forkUrl, 'eth_newFilter', [criteria])
    const logs = await rpcResult<Log[]>(forkUrl, 'eth_getFilterLogs', [id])
    expect(logs).toEqual(await rpcResult(forkUrl, 'eth_getLogs', [criteria]))
    expect(logs.map((l) => l.blockNumber)).toEqual(['0x1', '0x2', '0x5', '0x6'])
  })

  it('counts both parts against the fork’s result limit', async () => {
    const limited = await createDevnet({ fork: { url: h.url, blockNumber: h.forkBlock, cache: false }, logsResultLimit: 3, console: false })
    try {
      await expect(limited.rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).rejects.toMatchObject({
        code: -32000,
        message: 'query returned more than 3 results (option logsResultLimit)',
      })
      expect(await limited.rpc('eth_getLogs', [{ fromBlock: '0x2', toBlock: '0x2', address: h.token }])).toHaveLength(1)
    } finally {
      await limited.close()
    }
  })
})
