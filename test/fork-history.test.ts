/**
 * History before the fork (docs/fork.md): a fork of a dualnet with history (deploys,
 * transfers, logs, a reverted call, a block holding two EVM transactions and a native
 * one) answers every block, transaction, receipt and count at or below the fork
 * block as the remote does, byte for byte over HTTP; unknown hashes and what the
 * remote did after the fork block are null; the remote's error answers come through
 * as it gave them; traces of remote transactions are the remote's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/index.ts'
import { forkedHistory, rawRpc, rpcResult, STRANGER, type ForkedHistory, type HistoryRemote } from './fork-support.ts'

let forked: ForkedHistory
let h: HistoryRemote
let fork: Devnet
let forkUrl: string

beforeAll(async () => {
  forked = await forkedHistory()
  ;({ h, fork, forkUrl } = forked)
}, 120_000)

afterAll(async () => {
  await forked?.close()
})

/** Asks the fork and the remote the same; expects the same HTTP body; resolves to the parsed result (or error). */
async function same(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const [mine, theirs] = await Promise.all([rawRpc(forkUrl, method, params), rawRpc(h.url, method, params)])
  expect(mine, `${method}(${JSON.stringify(params)})`).toBe(theirs)
  return JSON.parse(theirs)
}

const q = (n: number) => `0x${n.toString(16)}`
const UNKNOWN = `0x${'5a'.repeat(32)}`

type Block = { hash: string; number: string; transactions: (string | { hash: string })[] }

describe('blocks at and below the fork block', () => {
  it('are the remote’s, by number and by hash, with and without transaction objects, with their counts', async () => {
    for (let n = 0; n <= h.forkBlock; n++) {
      for (const full of [false, true]) {
        const block = (await same('eth_getBlockByNumber', [q(n), full])).result as Block
        expect(block.number).toBe(q(n))
        await same('eth_getBlockByHash', [block.hash, full])
      }
      const { hash } = (await rpcResult<Block>(h.url, 'eth_getBlockByNumber', [q(n), false]))!
      await same('eth_getBlockTransactionCountByNumber', [q(n)])
      await same('eth_getBlockTransactionCountByHash', [hash])
      await same('eth_getUncleCountByBlockHash', [hash])
      await same('eth_getUncleCountByBlockNumber', [q(n)])
    }
    // The fork block holds its three transactions (the native one counts, and is not listed).
    const block5 = (await rpcResult<Block>(forkUrl, 'eth_getBlockByNumber', ['0x5', false]))!
    expect(block5.transactions).toEqual(h.txs[5])
    expect(await rpcResult(forkUrl, 'eth_getBlockTransactionCountByNumber', ['0x5'])).toBe('0x3')
    expect(await rpcResult(forkUrl, 'eth_getBlockTransactionCountByHash', [block5.hash])).toBe('0x3')
  })

  it('answers the tags naming them: latest is the fork block until the fork mines, earliest is block 0', async () => {
    for (const full of [false, true]) {
      expect(await rawRpc(forkUrl, 'eth_getBlockByNumber', ['latest', full])).toBe(await rawRpc(h.url, 'eth_getBlockByNumber', [q(h.forkBlock), full]))
      expect(await rawRpc(forkUrl, 'eth_getBlockByNumber', ['earliest', full])).toBe(await rawRpc(h.url, 'eth_getBlockByNumber', ['0x0', full]))
    }
    expect(await rawRpc(forkUrl, 'eth_getTransactionByBlockNumberAndIndex', ['latest', '0x2'])).toBe(await rawRpc(h.url, 'eth_getTransactionByBlockNumberAndIndex', [q(h.forkBlock), '0x2']))
  })
})

describe('transactions at and below the fork block', () => {
  it('are the remote’s: the transaction, its receipt and logs, and by block and index', async () => {
    for (let n = 1; n <= h.forkBlock; n++) {
      for (const tx of h.txs[n]!) {
        await same('eth_getTransactionByHash', [tx])
        await same('eth_getTransactionReceipt', [tx])
        await same('eth_getTransactionLogs', [tx])
      }
      const { hash } = (await rpcResult<Block>(h.url, 'eth_getBlockByNumber', [q(n), false]))!
      // One index past the last transaction: null on both.
      for (let i = 0; i <= (n === 5 ? 3 : 1); i++) {
        await same('eth_getTransactionByBlockNumberAndIndex', [q(n), q(i)])
        await same('eth_getTransactionByBlockHashAndIndex', [hash, q(i)])
      }
    }
    const reverted = (await rpcResult<{ status: string; logs: unknown[] }>(forkUrl, 'eth_getTransactionReceipt', [h.txs[4]![0]]))!
    expect(reverted.status).toBe('0x0')
    expect(reverted.logs).toHaveLength(1) // the fee, paid by a failed transaction too
    // The block orders EVM transactions first (reference §5.5): the native one is at index 2, counted, not listed.
    const second = (await rpcResult<{ transactionIndex: string; blockNumber: string }>(forkUrl, 'eth_getTransactionByHash', [h.txs[5]![1]]))!
    expect(second).toMatchObject({ transactionIndex: '0x1', blockNumber: '0x5' })
    expect(await rpcResult(forkUrl, 'eth_getTransactionByBlockNumberAndIndex', ['0x5', '0x2'])).toBeNull()
  })

  it('passes the remote’s error answers on as it gave them (a native transaction’s hash)', async () => {
    expect((await same('eth_getTransactionByHash', [h.nativeTx])).error).toEqual({ code: -32000, message: 'not a EIP155 tx' })
    expect((await same('eth_getTransactionReceipt', [h.nativeTx])).error?.code).toBe(-32000)
    expect((await same('eth_getTransactionLogs', [h.nativeTx])).error?.code).toBe(-32000)
  })

  it('answers null for a hash nobody has, as the remote does', async () => {
    for (const method of ['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'eth_getTransactionLogs', 'eth_getBlockTransactionCountByHash', 'eth_getUncleCountByBlockHash']) {
      expect((await same(method, [UNKNOWN])).result).toBeNull()
    }
    expect((await same('eth_getBlockByHash', [UNKNOWN, true])).result).toBeNull()
    expect((await same('eth_getTransactionByBlockHashAndIndex', [UNKNOWN, '0x0'])).result).toBeNull()
  })

  it('answers null for what the remote did after the fork block: its later transaction and block are not the fork’s', async () => {
    const [later] = h.txs[6]!
    const block6 = (await rpcResult<Block>(h.url, 'eth_getBlockByNumber', ['0x6', false]))!
    expect(await rpcResult(h.url, 'eth_getTransactionByHash', [later])).not.toBeNull()
    for (const [method, params] of [
      ['eth_getTransactionByHash', [later]],
      ['eth_getTransactionReceipt', [later]],
      ['eth_getTransactionLogs', [later]],
      ['eth_getBlockByHash', [block6.hash, false]],
      ['eth_getBlockTransactionCountByHash', [block6.hash]],
      ['eth_getUncleCountByBlockHash', [block6.hash]],
      ['eth_getTransactionByBlockHashAndIndex', [block6.hash, '0x0']],
      ['eth_getBlockByNumber', ['0x6', false]],
    ] as const) {
      expect(await rpcResult(forkUrl, method, [...params]), method).toBeNull()
    }
    await expect(rpcResult(forkUrl, 'eth_getLogs', [{ blockHash: block6.hash }])).rejects.toThrow('eth_getLogs: unknown block')
  })
})

describe('traces of remote transactions', () => {
  it('are the remote’s: debug_traceTransaction goes to it, with the options as given', async () => {
    const [transfer] = h.txs[2]!
    const structLogs = (await same('debug_traceTransaction', [transfer])).result as { failed: boolean; structLogs: unknown[] }
    expect(structLogs.failed).toBe(false)
    expect(structLogs.structLogs.length).toBeGreaterThan(10)
    expect(((await same('debug_traceTransaction', [transfer, { tracer: 'callTracer' }])).result as { to: string }).to).toBe(h.token)
    expect(((await same('debug_traceTransaction', [h.txs[4]![0], { tracer: 'callTracer' }])).result as { error: string }).error).toBe('execution reverted')
    // A transaction of the fork block: the remote replays it on its state before it.
    expect(((await same('debug_traceTransaction', [h.txs[5]![1], { tracer: 'callTracer' }])).result as { to: string }).to).toBe(h.token)
    // Options are checked here first, as for a local transaction (with the same texts as the remote's).
    expect((await same('debug_traceTransaction', [transfer, { tracer: 'noSuchTracer' }])).error).toEqual({ code: -32000, message: 'unkown tracer type: noSuchTracer' })
    expect((await same('debug_traceTransaction', [transfer, 'callTracer'])).error?.code).toBe(-32602)
  })
})

describe('state below the fork block', () => {
  it('is the remote’s at that block: reads, calls, estimates and call traces go to it', async () => {
    const A = fork.accounts[0]!.address
    const balanceOf = `0x70a08231${STRANGER.slice(2).padStart(64, '0')}`
    for (let n = 0; n < h.forkBlock; n++) {
      for (const address of [STRANGER, A, h.token]) {
        await same('eth_getBalance', [address, q(n)])
        await same('eth_getTransactionCount', [address, q(n)])
        await same('eth_getCode', [address, q(n)])
      }
      await same('eth_getStorageAt', [h.token, '0x2', q(n)])
      await same('eth_call', [{ to: h.token, data: balanceOf }, q(n)])
    }
    // The token holds nothing for STRANGER before block 2, 250 from it on.
    expect(await rpcResult(forkUrl, 'eth_call', [{ to: h.token, data: balanceOf }, '0x1'])).toBe(`0x${'0'.repeat(64)}`)
    expect(await rpcResult(forkUrl, 'eth_call', [{ to: h.token, data: balanceOf }, '0x2'])).toBe(`0x${(250).toString(16).padStart(64, '0')}`)
    await same('eth_estimateGas', [{ from: A, to: h.token, data: `0xa9059cbb${STRANGER.slice(2).padStart(64, '0')}${'1'.padStart(64, '0')}` }, '0x2'])
    expect(((await same('debug_traceCall', [{ to: h.token, data: balanceOf }, '0x2', { tracer: 'callTracer' }])).result as { to: string }).to).toBe(h.token)
  })
})
