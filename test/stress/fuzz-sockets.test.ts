/**
 * Fuzzing over real sockets (the smaller run beside the function-call targets): raw
 * HTTP bodies and content types at the JSON-RPC server, WebSocket frames (text and
 * binary, requests, batches, broken JSON), and raw paths, methods and bodies at the
 * REST server. fast-check with a fixed seed; `DUALNET_FUZZ_RUNS` / `_SCALE` / `_SEED`
 * as in test/fuzz-support.ts.
 *
 * Properties: every answer in the surface's convention (JSON-RPC: a response object or
 * batch with a standard code, or go-ethereum's 405/413/415; REST: the envelope with the
 * node's code, or its 404 text), no stack frame or internal path on the wire, the
 * WebSocket stays open and answers each frame, the chain unchanged after a rejected
 * input, and both servers still serving at the end.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { WebSocket } from 'ws'
import { createDevnet, type Devnet } from '../../src/index.ts'
import { rpcMethods } from '../../src/rpc/methods/index.ts'
import { restRoutes } from '../../src/rest/routes/index.ts'
import { fingerprint, fuzzSettings, leaksInternals, paramsOf, show } from '../fuzz-support.ts'
import { chainOf } from '../../src/devnet/provider.ts'

const STANDARD_CODES = new Set([-32700, -32600, -32601, -32602, -32000, -32003, 3])
/** Read-only methods: a socket run must leave the chain as it was. */
const READS = Object.keys(rpcMethods).filter((m) => !/^(evm_|hardhat_|anvil_|tenderly_|dev_|miner_|eth_send|eth_resend|eth_sign|personal_|txpool_|debug_clearTxpool)|Filter|subscribe|_reset$/.test(m))

let devnet: Devnet
let rpcUrl: string
let restUrl: string

beforeAll(async () => {
  // dualnet_gasSnapshot of a known transaction writes its file: in the temporary directory, not the checkout.
  devnet = await createDevnet({ accounts: 2, nativeAccounts: 1, clock: 'frozen', genesisTimestamp: 1_700_000_000, gasSnapshot: { file: join(tmpdir(), `dualnet-fuzz-gas-${process.pid}.json`) } })
  await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: '0x1', gasPrice: '0x3b9aca00' }])
  ;({ rpcUrl, restUrl } = (await devnet.listen()) as { rpcUrl: string; restUrl: string })
})

afterAll(async () => {
  await devnet?.close()
})

const wireJson = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? 'null'

/** A request as JSON text, sometimes cut, padded or with a byte changed. */
const requestText: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.nat(), fc.string({ maxLength: 4 })), method: fc.constantFrom(...READS), params: paramsOf([]) }, { requiredKeys: ['jsonrpc', 'method'] }),
      fc.array(fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.constantFrom(...READS), params: paramsOf([]) }), { maxLength: 5 }),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    fc.constantFrom('as is', 'as is', 'as is', 'cut', 'flip', 'pad'),
    fc.nat(),
  )
  .map(([value, how, at]) => {
    const text = wireJson(value)
    const i = text.length === 0 ? 0 : at % text.length
    if (how === 'cut') return text.slice(0, i)
    if (how === 'flip') return `${text.slice(0, i)}${String.fromCharCode((text.charCodeAt(i) + 1 + (at % 50)) % 128)}${text.slice(i + 1)}`
    if (how === 'pad') return ` \n\t${text}\r\n `
    return text
  })

/** Checks one JSON-RPC answer: a response object per request, each well-formed. */
function checkRpcAnswer(text: string, what: string): void {
  expect(leaksInternals(text), `${what} leaks: ${text.slice(0, 300)}`).toBe(false)
  const json = JSON.parse(text) as unknown
  for (const r of Array.isArray(json) ? json : [json]) {
    expect(r, what).toMatchObject({ jsonrpc: '2.0' })
    const o = r as { error?: { code: number; message: string }; result?: unknown }
    if (o.error !== undefined) expect(STANDARD_CODES.has(o.error.code), `${what}: ${text.slice(0, 200)}`).toBe(true)
    else expect('result' in o, what).toBe(true)
  }
}

describe('fuzz over sockets', () => {
  it('JSON-RPC over HTTP: raw bodies and content types', async () => {
    const { numRuns, seed } = fuzzSettings(600)
    const before = fingerprint(devnet)
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(requestText, fc.constantFrom('application/json', 'application/json', 'application/json-rpc', 'text/plain', 'application/json; charset=utf-8'), async (body, type) => {
        const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': type }, body })
        const text = await response.text()
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        const what = `${type} ${show(body)}`
        if (response.status === 415) {
          expect(text).toBe('invalid content type, only application/json is supported')
          return
        }
        expect(response.status, `${what} -> ${response.status} ${text.slice(0, 200)}`).toBe(200)
        // Notifications only: an empty answer.
        if (text === '') return
        checkRpcAnswer(text, what)
      }),
      { numRuns, seed, endOnFailure: true },
    )
    console.log(`[fuzz] HTTP JSON-RPC bodies (seed ${seed}): ${numRuns} requests; statuses ${[...statuses].map(([s, n]) => `${s}:${n}`).join(' ')}`)
    expect(fingerprint(devnet)).toBe(before)
  })

  it('JSON-RPC over WebSocket: frames of any kind on one socket, each answered, the socket kept', async () => {
    const { numRuns, seed } = fuzzSettings(600)
    const before = fingerprint(devnet)
    const ws = new WebSocket(rpcUrl.replace('http', 'ws'))
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    let closed = false
    ws.once('close', () => (closed = true))
    const queue: string[] = []
    let waiting: ((text: string) => void) | undefined
    ws.on('message', (data) => {
      const text = String(data)
      if (waiting !== undefined) {
        const resolve = waiting
        waiting = undefined
        resolve(text)
      } else queue.push(text)
    })
    const nextAnswer = () =>
      new Promise<string>((resolve, reject) => {
        if (queue.length > 0) return resolve(queue.shift()!)
        const timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5_000)
        waiting = (text) => {
          clearTimeout(timer)
          resolve(text)
        }
      })
    let frames = 0
    await fc.assert(
      fc.asyncProperty(requestText, fc.boolean(), async (text, binary) => {
        frames++
        const id = 1_000_000 + frames
        ws.send(binary ? Buffer.from(text) : text)
        // A probe after every frame: the frame's own answer (if any) comes first, the probe's last.
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_chainId' }))
        for (;;) {
          const answer = await nextAnswer()
          const json = JSON.parse(answer) as { id?: unknown }
          if (json.id === id) {
            expect(json).toEqual({ jsonrpc: '2.0', id, result: '0x3039' })
            break
          }
          checkRpcAnswer(answer, show(text))
        }
        expect(closed).toBe(false)
      }),
      { numRuns, seed, endOnFailure: true },
    )
    ws.close()
    console.log(`[fuzz] WebSocket frames (seed ${seed}): ${frames} frames, each followed by a probe the socket answered`)
    expect(fingerprint(devnet)).toBe(before)
  })

  it('REST: raw paths, methods and bodies', async () => {
    const { numRuns, seed } = fuzzSettings(600)
    const before = fingerprint(devnet)
    const segments = fc.oneof(
      fc.constantFrom(
        'api',
        'v1',
        'block',
        'height',
        'details',
        'hash',
        'transaction',
        'balance',
        'balancev2',
        'smartcode',
        'event',
        'txhash',
        'storage',
        'contract',
        'merkleproof',
        'mempool',
        'txstate',
        '1',
        '0',
        devnet.accounts[0]!.base58,
        'f'.repeat(64),
        '%00',
        '..',
        '__proto__',
      ),
      fc.string({ maxLength: 6 }).map(encodeURIComponent),
    )
    // Mostly the routes' own templates with generated segments, else any path.
    const templates = restRoutes.map((r) => r.path)
    const fromTemplate = fc.tuple(fc.constantFrom(...templates), fc.array(segments, { minLength: 3, maxLength: 3 })).map(([t, values]) => {
      let i = 0
      return t.replace(/:\w+/g, () => values[i++ % 3]!)
    })
    const path = fc.oneof({ weight: 3, arbitrary: fromTemplate }, { weight: 1, arbitrary: fc.array(segments, { maxLength: 7 }).map((s) => `/api/v1/${s.join('/')}`) })
    const query = fc.oneof(
      fc.constant(''),
      fc.constantFrom('?raw=1', '?preExec=1', '?raw=1&raw=0', '?__proto__=1'),
      fc.string({ maxLength: 10 }).map((q) => `?${encodeURIComponent(q)}`),
    )
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(path, query, fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'), requestText, async (p, q, method, body) => {
        const url = `${restUrl}${method === 'POST' && p.length % 3 === 0 ? '/api/v1/transaction' : p}${q}`
        const response = await fetch(url, { method, body: method === 'POST' || method === 'PUT' ? body : undefined })
        const text = await response.text()
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        const what = `${method} ${url} ${show(body)}`
        expect(leaksInternals(text), `${what} leaks: ${text.slice(0, 300)}`).toBe(false)
        if (response.status === 404) {
          // HEAD answers carry no body.
          expect(text, what).toBe(method === 'HEAD' ? '' : '404 page not found\n')
          return
        }
        expect(response.status, `${what} -> ${response.status} ${text.slice(0, 200)}`).toBe(200)
        if (method === 'OPTIONS' || method === 'HEAD') return
        const envelope = JSON.parse(text) as { Error: number; Version: string }
        expect(Object.keys(envelope), what).toEqual(['Action', 'Desc', 'Error', 'Result', 'Version'])
        expect(envelope.Version).toBe('1.0.0')
      }),
      { numRuns, seed, endOnFailure: true },
    )
    console.log(`[fuzz] REST over HTTP (seed ${seed}): ${numRuns} requests; statuses ${[...statuses].map(([s, n]) => `${s}:${n}`).join(' ')}`)
    // Accepted POSTs may have mined something; only a chain with nothing new must be unchanged.
    if (chainOf(devnet).height === 1) expect(fingerprint(devnet)).toBe(before)
    expect(((await (await fetch(`${restUrl}/api/v1/block/height`)).json()) as { Error: number }).Error).toBe(0)
  })
})
