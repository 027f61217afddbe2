/**
 * A fork's remote failing (docs/fork.md): the remote sits behind a loopback proxy
 * that can answer HTTP 429 or stop answering. A request that needs a value not
 * fetched yet fails with a JSON-RPC error naming the remote call, and changes
 * nothing; values already fetched keep working without the remote; a 429 is
 * retried after its Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDevnet, type Devnet } from '../src/index.ts'
import { FaultProxy } from './fork-support.ts'

const RICH = '0x00000000000000000000000000000000c0ffee11'
const OTHER = '0x00000000000000000000000000000000c0ffee12'

let remote: Devnet
let proxy: FaultProxy
let fork: Devnet
let proxyUrl: string

beforeAll(async () => {
  remote = await createDevnet({ console: false })
  await remote.setBalance(RICH, { gas: 10n ** 18n })
  await remote.setBalance(OTHER, { gas: 3n })
  proxy = new FaultProxy((await remote.listen()).rpcUrl)
  proxyUrl = await proxy.listen()
  fork = await createDevnet({ fork: { url: proxyUrl, remote: { retries: 1, backoff: 20, timeout: 5_000 } }, console: false })
}, 120_000)

afterAll(async () => {
  await fork?.close()
  await proxy?.close()
  await remote?.close()
})

describe('remote failures', () => {
  it('retries after HTTP 429', async () => {
    proxy.mode = '429-once'
    const before = proxy.requests
    expect(await fork.rpc('eth_getBalance', [RICH, 'latest'])).toBe('0xde0b6b3a7640000')
    expect(proxy.requests - before).toBe(2)
  })

  it('fails a request that needs an unfetched value with an error naming the remote call, changing nothing', async () => {
    await fork.rpc('hardhat_impersonateAccount', [RICH])
    const height = await fork.rpc('eth_blockNumber')
    const nonce = await fork.rpc('eth_getTransactionCount', [RICH, 'latest'])
    proxy.mode = 'down'
    try {
      await expect(fork.rpc('eth_getBalance', [OTHER, 'latest'])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(new RegExp(`^fork: the remote call eth_getBalance\\(${OTHER}, 0x0\\) to http://127\\.0\\.0\\.1:\\d+ failed: .* \\(2 attempts\\)$`)),
      })
      // A transfer to an account not fetched: refused whole, nothing mined, the sender's nonce as it was.
      await expect(fork.rpc('eth_sendTransaction', [{ from: RICH, to: OTHER, value: '0x1', gas: '0x5208', gasPrice: '0x0' }])).rejects.toMatchObject({
        code: -32000,
        message: expect.stringContaining('fork: the remote call eth_getBalance'),
      })
      expect(await fork.rpc('eth_blockNumber')).toBe(height)
      expect(await fork.rpc('eth_getTransactionCount', [RICH, 'latest'])).toBe(nonce)
      expect(await fork.rpc('txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
      // What was fetched keeps working offline.
      expect(await fork.rpc('eth_getBalance', [RICH, 'latest'])).toBe('0xde0b6b3a7640000')
    } finally {
      proxy.mode = 'forward'
    }
    // Once the remote is back, the same transfer goes through.
    const hash = await fork.rpc('eth_sendTransaction', [{ from: RICH, to: OTHER, value: '0x1', gas: '0x5208', gasPrice: '0x0' }])
    expect((await fork.rpc('eth_getTransactionReceipt', [hash]))!.status).toBe('0x1')
    expect(await fork.rpc('eth_getBalance', [OTHER, 'latest'])).toBe('0x4')
    expect(await remote.rpc('eth_getBalance', [OTHER, 'latest'])).toBe('0x3')
  })

  it('fails a REST read of an unfetched value with its error envelope', async () => {
    proxy.mode = 'down'
    try {
      // The storage route reads the account first (EVM code or not); this fork has no REST URL, so balancev2 would say "not forked".
      const answer = await fork.rest.get('/api/v1/storage/31eeffc000000000000000000000000000000000/01')
      expect(answer.Error).toBe(45001)
      expect(String(answer.Result)).toMatch(/^fork: the remote call eth_getBalance\(0x/)
    } finally {
      proxy.mode = 'forward'
    }
  })
})

describe('disk cache', () => {
  it('reuses the values a run fetched in a later run of the same fork block, without the remote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dualnet-fork-cache-'))
    try {
      const options = { fork: { url: proxyUrl, blockNumber: 0, cache: dir }, console: false }
      const first = await createDevnet(options)
      expect(await first.rpc('eth_getBalance', [OTHER, 'latest'])).toBe('0x3')
      await first.close()
      const files = join(dir, '12345')
      expect(existsSync(files)).toBe(true)
      const second = await createDevnet(options)
      const before = proxy.requests
      expect(await second.rpc('eth_getBalance', [OTHER, 'latest'])).toBe('0x3')
      expect(await second.rpc('eth_getTransactionCount', [OTHER, 'latest'])).toBe('0x0')
      expect(proxy.requests).toBe(before)
      await second.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('controls over a fork', () => {
  it("dumps the fork's local writes; a fresh fork of the same remote that loads them reads them, and the remote's values beside them", async () => {
    const doc = await fork.dumpState()
    // The transfer above, written locally: listed with the values the fork gave it.
    expect(doc.accounts[OTHER]).toMatchObject({ nonce: '0', gas: '4' })
    expect(doc.accounts[RICH]).toMatchObject({ nonce: '1', gas: String(10n ** 18n - 1n) })
    const third = '0x00000000000000000000000000000000c0ffee13'
    await remote.setBalance(third, { gas: 9n })
    const second = await createDevnet({ fork: { url: proxyUrl, cache: false }, console: false })
    try {
      await second.loadState(doc)
      expect(await second.rpc('eth_getBalance', [OTHER, 'latest'])).toBe('0x4')
      expect(await second.rpc('eth_getTransactionCount', [RICH, 'latest'])).toBe('0x1')
      // Not in the document: fetched from the remote as on any fork.
      expect(await second.rpc('eth_getBalance', [third, 'latest'])).toBe('0x9')
      expect(await remote.rpc('eth_getBalance', [OTHER, 'latest'])).toBe('0x3')
    } finally {
      await second.close()
    }
  })

  it('resets to another fork block with hardhat_reset forking, and to a plain devnet without', async () => {
    const url = (await remote.listen()).rpcUrl
    await remote.mine(2)
    expect(await fork.rpc('hardhat_reset', [{ forking: { jsonRpcUrl: url, blockNumber: 1 } }])).toBe(true)
    expect(await fork.rpc('eth_blockNumber')).toBe('0x1')
    expect(fork.chainId).toBe(12345)
    expect(await fork.rpc('eth_getBalance', [OTHER, 'latest'])).toBe('0x3')
    expect(await fork.rpc('anvil_reset', [])).toBeNull()
    expect(await fork.rpc('eth_blockNumber')).toBe('0x0')
    expect(await fork.rpc('eth_getBalance', [OTHER, 'latest'])).toBe('0x0')
    await expect(fork.rpc('hardhat_reset', [{ forking: { jsonRpcUrl: url, blockNumber: 99 } }])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("forking.blockNumber: 99 is invalid (above the remote's latest block). Allowed: a block number from 0 to the remote's latest block"),
    })
    expect(await fork.rpc('eth_blockNumber')).toBe('0x0')
  })
})
