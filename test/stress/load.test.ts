/**
 * Load over loopback at one automining devnet: 1,000 concurrent JSON-RPC requests
 * (reads mixed with eth_sendRawTransaction from 20 senders, some with nonce gaps and
 * some sent twice) together with 1,000 concurrent REST reads. A second copy is refused
 * (`already known`) while the first waits, and answered with the same hash once it is
 * mined, as the real node does (reference §6.5).
 *
 * Holds: every request that should succeed does (HTTP 200, a result); every refusal
 * reaches its sender as a -32000 error with a reason; after the gaps are filled every
 * accepted transaction is mined exactly once (each hash in exactly one block, each
 * sender's nonce equal to its mined count); the server keeps serving. Prints requests/s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import { createDevnet, type Devnet } from '../../src/index.ts'
import { chainOf } from '../../src/devnet/provider.ts'

const SENDERS = 20
/** Transactions per sender sent in the burst (nonces 0..PER_SENDER-1, shuffled in). */
const PER_SENDER = 12
/** Senders whose burst also holds a transaction at nonce PER_SENDER + 1: a gap until nonce PER_SENDER arrives. */
const GAPPED = 5
const RPC_REQUESTS = 1_000
const REST_REQUESTS = 1_000

let devnet: Devnet
let rpcUrl: string
let restUrl: string

beforeAll(async () => {
  devnet = await createDevnet({ accounts: SENDERS + 1 })
  ;({ rpcUrl, restUrl } = (await devnet.listen()) as { rpcUrl: string; restUrl: string })
})

afterAll(async () => {
  await devnet?.close()
})

const sign = (key: string, nonce: number, to: string) => new Wallet(key).signTransaction({ type: 0, chainId: 12345, nonce, gasPrice: 10n ** 9n, gasLimit: 21_000n, to, value: 1n })

async function rpc(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

/** Fisher-Yates with a fixed LCG, so the interleaving is the same on every run. */
function shuffle<T>(items: T[]): T[] {
  let seed = 42
  for (let i = items.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    const j = seed % (i + 1)
    ;[items[i], items[j]] = [items[j]!, items[i]!]
  }
  return items
}

describe('load: 1,000 JSON-RPC + 1,000 REST requests at once', () => {
  it('serves every request, mines every accepted transaction exactly once, explains every refusal', async () => {
    const senders = devnet.accounts.slice(0, SENDERS)
    const receiver = devnet.accounts[SENDERS]!.address
    type Job = { kind: 'send'; raw: string; sender: number; nonce: number; duplicate: boolean } | { kind: 'read'; body: unknown }
    const sends: Job[] = []
    for (let s = 0; s < SENDERS; s++) {
      for (let n = 0; n < PER_SENDER; n++) sends.push({ kind: 'send', raw: await sign(senders[s]!.privateKey, n, receiver), sender: s, nonce: n, duplicate: false })
      if (s < GAPPED) sends.push({ kind: 'send', raw: await sign(senders[s]!.privateKey, PER_SENDER + 1, receiver), sender: s, nonce: PER_SENDER + 1, duplicate: false })
    }
    // Ten transactions sent twice: one copy is accepted, the other refused as known (or as a spent nonce).
    const duplicates = sends.slice(0, 10).map((j) => ({ ...(j as Extract<Job, { kind: 'send' }>), duplicate: true }))
    const readBodies = [
      { method: 'eth_blockNumber', params: [] },
      { method: 'eth_chainId', params: [] },
      { method: 'eth_getBalance', params: [receiver, 'latest'] },
      { method: 'eth_getTransactionCount', params: [senders[0]!.address, 'pending'] },
      { method: 'eth_getBlockByNumber', params: ['latest', true] },
      { method: 'eth_gasPrice', params: [] },
      { method: 'eth_call', params: [{ to: receiver, data: '0x' }, 'latest'] },
    ]
    const jobs: Job[] = [...sends, ...duplicates]
    for (let i = 0; jobs.length < RPC_REQUESTS; i++) jobs.push({ kind: 'read', body: readBodies[i % readBodies.length] })
    shuffle(jobs)
    const restPaths = ['/api/v1/block/height', `/api/v1/balance/${senders[1]!.base58}`, '/api/v1/block/details/height/0', '/api/v1/mempool/txcount', '/api/v1/gasprice', '/api/v1/networkid']

    const t0 = performance.now()
    const [rpcAnswers, restAnswers] = await Promise.all([
      Promise.all(jobs.map((job, id) => rpc(job.kind === 'send' ? { jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [job.raw] } : { jsonrpc: '2.0', id, ...(job.body as object) }))),
      Promise.all(
        Array.from({ length: REST_REQUESTS }, async (_, i) => {
          const response = await fetch(`${restUrl}${restPaths[i % restPaths.length]}`)
          return { status: response.status, json: (await response.json()) as { Error: number } }
        }),
      ),
    ])
    const seconds = (performance.now() - t0) / 1000
    console.log(
      `[load] ${RPC_REQUESTS} JSON-RPC (${sends.length + duplicates.length} sendRawTransaction) + ${REST_REQUESTS} REST requests in ${seconds.toFixed(2)} s: ${((RPC_REQUESTS + REST_REQUESTS) / seconds).toFixed(0)} requests/s`,
    )

    // Every REST read and every JSON-RPC read succeeded.
    for (const answer of restAnswers) expect(answer).toMatchObject({ status: 200, json: { Error: 0 } })
    const accepted = new Map<string, { sender: number; nonce: number }>()
    /** Answers per raw transaction: of a pair sent twice exactly one is accepted, whichever came first. */
    const outcomes = new Map<string, ('accepted' | 'refused')[]>()
    let refused = 0
    jobs.forEach((job, id) => {
      const { status, json } = rpcAnswers[id]!
      expect(status).toBe(200)
      expect(json.id).toBe(id)
      if (job.kind === 'read') {
        expect(json.error, JSON.stringify(json)).toBeUndefined()
        return
      }
      const outcome = outcomes.get(job.raw) ?? []
      outcomes.set(job.raw, outcome)
      if ('result' in json) {
        accepted.set(json.result as string, { sender: job.sender, nonce: job.nonce })
        outcome.push('accepted')
        return
      }
      // A refusal: only a copy of an accepted transaction may be refused, with a reason the sender can read.
      refused++
      outcome.push('refused')
      expect(json.error).toMatchObject({ code: -32000, message: expect.stringMatching(/already known/) })
    })
    // Of a pair, the second copy is refused while the first waits in the pool ("already known"),
    // and answered with the same hash once it is mined (the node's ErrDuplicatedTx as success, reference §6.5).
    for (const [raw, outcome] of outcomes) expect(outcome.sort().join(), raw).toMatch(outcome.length === 2 ? /^accepted,(accepted|refused)$/ : /^accepted$/)
    expect(accepted.size).toBe(sends.length)
    expect(refused).toBeLessThanOrEqual(duplicates.length)

    // The gapped transactions wait until their gap is filled.
    expect(Number((await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })).json.result as string)).toBe(SENDERS * PER_SENDER)
    for (let s = 0; s < GAPPED; s++) {
      const { json } = await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [await sign(senders[s]!.privateKey, PER_SENDER, receiver)] })
      accepted.set(json.result as string, { sender: s, nonce: PER_SENDER })
    }

    // Every accepted transaction is in exactly one block; nothing else is.
    const seen = new Map<string, number>()
    const height = Number((await devnet.rpc('eth_blockNumber')) as string)
    for (let h = 1; h <= height; h++) {
      const block = (await devnet.rpc('eth_getBlockByNumber', [`0x${h.toString(16)}`, false])) as { transactions: string[] }
      for (const hash of block.transactions) seen.set(hash, (seen.get(hash) ?? 0) + 1)
    }
    expect(seen.size).toBe(accepted.size)
    for (const hash of accepted.keys()) expect(seen.get(hash), hash).toBe(1)
    for (let s = 0; s < SENDERS; s++) {
      const mined = [...accepted.values()].filter((a) => a.sender === s).length
      expect(await devnet.rpc('eth_getTransactionCount', [senders[s]!.address, 'latest'])).toBe(`0x${mined.toString(16)}`)
    }
    expect(chainOf(devnet).mempool.size).toBe(0)
    console.log(
      `[load] ${accepted.size} transactions accepted and mined once each in ${height} blocks; of ${duplicates.length} second copies ${refused} refused as already known, the rest answered with the mined hash`,
    )
    expect((await rpc({ jsonrpc: '2.0', id: 9, method: 'eth_chainId' })).json).toEqual({ jsonrpc: '2.0', id: 9, result: '0x3039' })
  })
})
