/**
 * Soak of heavy work beside a light client (issue 23, item 2): while one client sends
 * a batch of 20 traces of a 6,000,000-gas loop (struct logger and callTracer, under
 * the default traceTimeout and batchTraceTimeout) and another loads state documents
 * every 250 ms (a gzip bomb of 200 MiB refused at stateLimit, and a document of 1,000
 * accounts with code and storage that loads), a probe client's eth_blockNumber over
 * HTTP is answered throughout. Prints the probe's figures: on a quiet machine its
 * 99th percentile stays under 100 ms (the figure, in the README). A loaded CI
 * machine adds stalls of its own (seen: p99 158-193 ms at load 20 on 2 cores), so the
 * test asserts what load cannot explain away: a median under 100 ms and no answer held
 * for 3 s (before the pacer, one client waited 73.9 s).
 * (Parsing and writing an accepted document is one synchronous step, proportional to
 * its size: README "Limits and guarantees".)
 */
import http from 'node:http'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../../src/index.ts'

let devnet: Devnet
let url: URL

beforeAll(async () => {
  devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, console: false })
  url = new URL((await devnet.listen()).rpcUrl)
})

afterAll(async () => {
  await devnet?.close()
})

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })

/** One JSON-RPC POST over a kept-alive socket; resolves to the parsed answer. */
function post(body: unknown): Promise<unknown> {
  const payload = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

describe('soak: heavy traces and state loads beside a probe', () => {
  it("the probe's eth_blockNumber is answered throughout: median under 100 ms, none held 3 s", async () => {
    const from = devnet.accounts[0]!.address
    const loop = { from, data: '0x5b600056', gas: '0x5b8d80' }
    const hex = (b: Buffer) => `0x${b.toString('hex')}`
    const accounts: Record<string, unknown> = {}
    for (let i = 0; i < 1_000; i++) accounts[`0x${(i + 1).toString(16).padStart(40, '0')}`] = { balance: '0x1', nonce: 0, storage: { '0x01': '0x02' }, code: '0x6000' }
    const document = hex(gzipSync(JSON.stringify({ accounts })))
    const bomb = hex(gzipSync(Buffer.alloc(200 * 1024 * 1024, 0x20)))
    // Warm: tracers and state documents load on first use.
    await post({ jsonrpc: '2.0', id: 0, method: 'debug_traceCall', params: [{ from, to: from }, 'latest'] })
    await post({ jsonrpc: '2.0', id: 0, method: 'anvil_loadState', params: [document] })

    const batch = Array.from({ length: 20 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'debug_traceCall',
      params: [loop, 'latest', i % 2 === 0 ? { disableStack: true } : { tracer: 'callTracer' }],
    }))
    let running = true
    const started = performance.now()
    const traces = post(batch).then((answers) => {
      running = false
      return answers as { error?: { message: string } }[]
    })
    const loads: string[] = []
    const loader = (async () => {
      while (running) {
        const refused = (await post({ jsonrpc: '2.0', id: 1, method: 'anvil_loadState', params: [bomb] })) as { error?: { message: string } }
        loads.push(refused.error?.message ?? 'loaded')
        const loaded = (await post({ jsonrpc: '2.0', id: 2, method: 'anvil_loadState', params: [document] })) as { result?: boolean }
        loads.push(loaded.result === true ? 'loaded' : 'refused')
        // A client loading documents again and again, not a flood: parsing a request body is synchronous work of its own.
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    })()
    const latencies: number[] = []
    while (running) {
      const sent = performance.now()
      expect(await post({ jsonrpc: '2.0', id: 3, method: 'eth_blockNumber' })).toMatchObject({ result: '0x0' })
      latencies.push(performance.now() - sent)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const answers = await traces
    await loader
    const batchMs = performance.now() - started
    latencies.sort((a, b) => a - b)
    const [p50, p99, max] = [percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.at(-1)!]
    console.log(
      `[heavy-soak] batch of 20 traces answered in ${batchMs.toFixed(0)} ms (${answers.filter((a) => a.error !== undefined).length} stopped by their limits); ` +
        `${loads.length} state loads (${loads.filter((l) => l === 'loaded').length} loaded); probe: ${latencies.length} eth_blockNumber, ` +
        `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    )
    // Each trace ends by a limit: its time, the batch's, or (the struct logger's) traceSizeLimit.
    for (const answer of answers) if (answer.error !== undefined) expect(answer.error.message).toMatch(/^(execution timeout: |trace larger than )/)
    expect(loads).toContain('invalid argument 0: state document larger than 67108864 bytes of JSON (option stateLimit)')
    expect(loads).toContain('loaded')
    expect(latencies.length).toBeGreaterThan(50)
    expect(p50).toBeLessThan(100)
    expect(max).toBeLessThan(3_000)
  })
})
