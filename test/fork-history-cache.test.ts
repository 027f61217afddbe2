/**
 * A fork's history is kept (docs/fork.md "History before the fork"): once read, it
 * answers without the remote, in the same process and, through the disk cache, in a
 * later run of the same fork block; what was not read fails with the error naming the
 * remote call. The remote sits behind a loopback proxy that can stop answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDevnet } from '../src/index.ts'
import { FaultProxy, historyRemote, rawRpc, rpcResult, STRANGER, type HistoryRemote } from './fork-support.ts'

let h: HistoryRemote
let proxy: FaultProxy
let proxyUrl: string
let dir: string
/** The calls read through the first fork, with the remote's HTTP bodies. */
const read: { method: string; params: unknown[]; body: string }[] = []

beforeAll(async () => {
  h = await historyRemote()
  proxy = new FaultProxy(h.url)
  proxyUrl = await proxy.listen()
  dir = mkdtempSync(join(tmpdir(), 'dualnet-fork-history-'))
}, 120_000)

afterAll(async () => {
  await proxy?.close()
  await h?.remote.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

/** The fork's options: behind the proxy, at the history's fork block, with the disk cache in `dir`; one attempt per call. */
const options = () => ({ fork: { url: proxyUrl, blockNumber: h.forkBlock, cache: dir, remote: { retries: 0, timeout: 5_000 } }, console: false })

/** Every history call of the tests: blocks, transactions, receipts, counts, logs, an unknown hash. */
function calls(): [string, unknown[]][] {
  const out: [string, unknown[]][] = []
  for (let n = 0; n <= h.forkBlock; n++) out.push(['eth_getBlockByNumber', [`0x${n.toString(16)}`, true]], ['eth_getBlockTransactionCountByNumber', [`0x${n.toString(16)}`]])
  for (const tx of Object.values(h.txs).flat().slice(0, -1)) out.push(['eth_getTransactionByHash', [tx]], ['eth_getTransactionReceipt', [tx]])
  out.push(
    ['eth_getTransactionByBlockNumberAndIndex', ['0x5', '0x1']],
    ['eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x5', address: h.token }]],
    ['eth_getTransactionByHash', [`0x${'5a'.repeat(32)}`]],
  )
  return out
}

/** The fork's HTTP body for each call read before, which must be the remote's. */
async function expectReadAgain(forkUrl: string): Promise<void> {
  for (const { method, params, body } of read) expect(await rawRpc(forkUrl, method, params), method).toBe(body)
}

describe('kept history', () => {
  it('answers what was read with the remote down, and fails what was not with the error naming the remote call', async () => {
    const fork = await createDevnet(options())
    try {
      const forkUrl = (await fork.listen()).rpcUrl
      for (const [method, params] of calls()) {
        const body = await rawRpc(h.url, method, params)
        expect(await rawRpc(forkUrl, method, params), method).toBe(body)
        read.push({ method, params, body })
      }
      expect(await rpcResult(forkUrl, 'eth_getBalance', [STRANGER, 'latest'])).toBe(await rpcResult(h.url, 'eth_getBalance', [STRANGER, '0x5']))
      proxy.mode = 'down'
      await expectReadAgain(forkUrl)
      const unread = `0x${'6b'.repeat(32)}`
      const answer = JSON.parse(await rawRpc(forkUrl, 'eth_getTransactionReceipt', [unread]))
      expect(answer.error.code).toBe(-32000)
      expect(answer.error.message).toMatch(new RegExp(`^fork: the remote call eth_getTransactionReceipt\\(${unread}\\) to http://127\\.0\\.0\\.1:\\d+ failed: .* \\(1 attempt\\)$`))
      const logs = JSON.parse(await rawRpc(forkUrl, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x5' }]))
      expect(logs.error.message).toMatch(/^fork: the remote call eth_getLogs\(\{"fromBlock":"0x0","toBlock":"0x5"\}\) to /)
      // Local blocks keep working: the fork mines, and its own block is answered.
      await fork.mine()
      expect(((await rpcResult(forkUrl, 'eth_getBlockByNumber', ['latest', false])) as { number: string }).number).toBe('0x6')
    } finally {
      proxy.mode = 'forward'
      await fork.close()
    }
  })

  it('answers it in a later run of the same fork block from the disk cache, without asking the remote', async () => {
    const files = readdirSync(join(dir, '4242'))
    expect(files).toHaveLength(1)
    const file = join(dir, '4242', files[0]!)
    const held = JSON.parse(readFileSync(file, 'utf8')) as { version: number; history: [string, unknown[], unknown][] }
    expect(held.version).toBe(1)
    expect(held.history.map(([method]) => method)).toEqual(expect.arrayContaining(['eth_getBlockByNumber', 'eth_getTransactionReceipt', 'eth_getLogs']))
    const again = await createDevnet(options())
    try {
      const forkUrl = (await again.listen()).rpcUrl
      const before = proxy.requests
      await expectReadAgain(forkUrl)
      expect(await rpcResult(forkUrl, 'eth_getBalance', [STRANGER, 'latest'])).toBe(await rpcResult(h.url, 'eth_getBalance', [STRANGER, '0x5']))
      expect(proxy.requests).toBe(before)
    } finally {
      await again.close()
    }
    // A file of a program that kept no history (no `history` field) is still read: its state values are used.
    const { history: _history, ...stateOnly } = held
    writeFileSync(file, JSON.stringify(stateOnly))
    const older = await createDevnet(options())
    try {
      const before = proxy.requests
      expect(await older.rpc('eth_getBalance', [STRANGER, 'latest'])).toBe(await rpcResult(h.url, 'eth_getBalance', [STRANGER, '0x5']))
      expect(proxy.requests).toBe(before)
      await older.rpc('eth_getTransactionReceipt', [h.txs[2]![0]!])
      expect(proxy.requests).toBe(before + 1)
    } finally {
      await older.close()
    }
  })
})
