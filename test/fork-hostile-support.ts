/**
 * A hostile fork remote for the tests of issue 35 (test/fork-hostile-remote.test.ts): a
 * loopback node:http server that answers JSON-RPC like a small, healthy chain until a
 * test tells it otherwise, per method (a crafted result) or per HTTP exchange (a status,
 * headers, or a raw streamed body). Not a test file itself.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { once } from 'node:events'

/** A JSON-RPC request as the remote received it. */
export interface ReceivedCall {
  method: string
  params: unknown[]
}

/**
 * What the remote answers one call: `result` (any JSON, however wrong), or `error`.
 * Returning `undefined` from an override falls back to the healthy answer.
 */
export type Answer = { result: unknown } | { error: { code: number; message: string } }

/**
 * Takes over an HTTP exchange: writes the status, headers and body to `res` as the test
 * wants and returns true, or returns false to leave it to the per-call answers. `calls`
 * are the JSON-RPC requests it carried.
 */
export type ExchangeOverride = (res: ServerResponse, calls: ReceivedCall[]) => boolean

/** The healthy chain's fork block (its head), chain id and block timestamps. */
export const HEAD = 5
export const CHAIN_ID = 0x7a69
const TIMESTAMP = 0x6500_0000

/** The 32-byte hash of block `n` of the healthy chain. */
export function blockHash(n: number): string {
  return `0x${(n + 1).toString(16).padStart(64, 'b')}`
}

/** Block `n` of the healthy chain, as eth_getBlockByNumber(n, false) answers it. */
export function healthyBlock(n: number): Record<string, unknown> {
  return {
    number: `0x${n.toString(16)}`,
    hash: blockHash(n),
    parentHash: n === 0 ? `0x${'0'.repeat(64)}` : blockHash(n - 1),
    timestamp: `0x${(TIMESTAMP + n).toString(16)}`,
    nonce: '0x0000000000000000',
    sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
    logsBloom: `0x${'0'.repeat(512)}`,
    transactionsRoot: `0x${'56'.repeat(32)}`,
    stateRoot: `0x${'57'.repeat(32)}`,
    receiptsRoot: `0x${'56'.repeat(32)}`,
    miner: `0x${'0'.repeat(40)}`,
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: '0x200',
    gasLimit: '0x5b8d80',
    gasUsed: '0x0',
    transactions: [],
    uncles: [],
  }
}

/** The healthy answer of `call`: a small chain at block {@link HEAD}, every account empty. */
function healthy(call: ReceivedCall): Answer {
  switch (call.method) {
    case 'eth_chainId':
      return { result: `0x${CHAIN_ID.toString(16)}` }
    case 'net_version':
      return { result: String(CHAIN_ID) }
    case 'web3_clientVersion':
      return { result: 'hostile/1.0' }
    case 'eth_blockNumber':
      return { result: `0x${HEAD.toString(16)}` }
    case 'eth_getBlockByNumber': {
      const tag = call.params[0]
      const n = tag === 'latest' ? HEAD : typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag) ? Number(tag) : -1
      return { result: n >= 0 && n <= HEAD ? healthyBlock(n) : null }
    }
    case 'eth_getBalance':
    case 'eth_getTransactionCount':
      return { result: '0x0' }
    case 'eth_getCode':
      return { result: '0x' }
    case 'eth_getStorageAt':
      return { result: `0x${'0'.repeat(64)}` }
    default:
      return { error: { code: -32601, message: `the method ${call.method} does not exist/is not available` } }
  }
}

/**
 * Writes `total` bytes of spaces to `res` in 1 MiB chunks, waiting for the reader, and
 * stops when the reader goes away; resolves to the bytes written.
 */
export async function streamSpaces(res: ServerResponse, total: number): Promise<number> {
  const chunk = Buffer.alloc(1024 * 1024, 0x20)
  let written = 0
  while (written < total && !res.destroyed) {
    written += chunk.length
    if (!res.write(chunk)) await drainedOrClosed(res)
  }
  if (!res.destroyed) res.end()
  return written
}

/** Resolves when `res` drains or closes, leaving no listener behind. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/** The loopback remote; `listen()` gives its URL. */
export class HostileRemote {
  /** Per-call override: return an {@link Answer} to replace the healthy one, `undefined` to keep it. */
  answer: ((call: ReceivedCall) => Answer | undefined) | undefined
  /** Whole-exchange override (see {@link ExchangeOverride}). */
  exchange: ExchangeOverride | undefined
  /** The REST interface: the envelope's `Result` for a GET of `path`, or `undefined` for the node's "not found" (error 45001). */
  rest: ((path: string) => unknown) | undefined
  /** Every JSON-RPC request received, in order (each request of a batch). */
  readonly calls: ReceivedCall[] = []
  /** HTTP requests received. */
  requests = 0
  readonly #server: Server

  constructor() {
    this.#server = createServer((req, res) => void this.#serve(req, res))
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests++
    if (req.method === 'GET') {
      const result = this.rest?.(req.url ?? '/')
      const envelope = { Action: 'hostile', Desc: result === undefined ? 'UNKNOWN' : 'SUCCESS', Error: result === undefined ? 45001 : 0, Result: result ?? '', Version: '1.0.0' }
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope))
    }
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    let body: unknown
    try {
      body = JSON.parse(Buffer.concat(chunks).toString())
    } catch {
      body = null
    }
    const requests = (Array.isArray(body) ? body : [body]) as { id?: unknown; method?: unknown; params?: unknown }[]
    const calls = requests.map((r) => ({ method: String(r?.method), params: Array.isArray(r?.params) ? (r.params as unknown[]) : [] }))
    this.calls.push(...calls)
    if (this.exchange?.(res, calls) === true) return
    const answers = requests.map((r, i) => ({ jsonrpc: '2.0', id: r?.id ?? null, ...(this.answer?.(calls[i]!) ?? healthy(calls[i]!)) }))
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? answers : answers[0]))
  }

  /** The calls of `method` received so far. */
  callsOf(method: string): ReceivedCall[] {
    return this.calls.filter((c) => c.method === method)
  }

  /** Starts serving on a free loopback port; resolves to the remote's URL. */
  async listen(): Promise<string> {
    this.#server.listen(0, '127.0.0.1')
    await once(this.#server, 'listening')
    const { port } = this.#server.address() as AddressInfo
    return `http://127.0.0.1:${port}`
  }

  /** Drops every connection and stops serving. */
  async close(): Promise<void> {
    this.#server.closeAllConnections()
    this.#server.close()
    await once(this.#server, 'close')
  }
}
