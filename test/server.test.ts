/**
 * The JSON-RPC server as a socket peer sees it (reference §6.1): batches,
 * notifications, parse errors, content types, body limit, health check, CORS,
 * and closing releasing the port.
 */
import { createServer } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

let devnet: Devnet
let url: string

beforeEach(async () => {
  devnet = await createDevnet({ bodyLimit: 64 * 1024 })
  url = (await devnet.listen()).rpcUrl
})
afterEach(async () => {
  await devnet.close()
})

function post(body: string, contentType = 'application/json'): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body })
}

describe('JSON-RPC over HTTP', () => {
  it('listens on an ephemeral loopback port', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(Number(new URL(url).port)).toBeGreaterThan(0)
  })

  it('answers a single request with the id echoed', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 'abc', method: 'eth_chainId', params: [] }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 'abc', result: '0x3039' })
  })

  it('answers a batch in order, skipping notifications', async () => {
    const res = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'net_version', params: [] },
        { jsonrpc: '2.0', method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'nope_method', params: [] },
        { jsonrpc: '2.0', id: 3, method: 'eth_blockNumber' },
      ]),
    )
    expect(await res.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: '12345' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'the method nope_method does not exist/is not available' } },
      { jsonrpc: '2.0', id: 3, result: '0x0' },
    ])
  })

  it('answers a notification-only body with an empty 200', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', method: 'eth_blockNumber', params: [] }))
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
  })

  it('rejects an empty batch with -32600', async () => {
    expect(await (await post('[]')).json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } })
  })

  it('answers malformed JSON with -32700 and keeps serving', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
    const next = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] }))
    expect(await next.json()).toEqual({ jsonrpc: '2.0', id: 2, result: '0x0' })
  })

  it('answers an invalid request object with -32600', async () => {
    for (const body of ['{"id":1,"method":"eth_chainId"}', '{"jsonrpc":"2.0","id":1,"method":7}', '42', '[1]']) {
      const answer: unknown = await (await post(body)).json()
      const error = Array.isArray(answer) ? (answer[0] as { error: unknown }).error : (answer as { error: unknown }).error
      expect(error).toEqual({ code: -32600, message: 'invalid request' })
    }
  })

  it('accepts the JSON-RPC content types and refuses others with 415', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
    expect((await post(body, 'application/json-rpc')).status).toBe(200)
    expect((await post(body, 'application/jsonrequest')).status).toBe(200)
    expect((await post(body, 'application/json; charset=utf-8')).status).toBe(200)
    const refused = await post(body, 'text/plain')
    expect(refused.status).toBe(415)
    expect(await refused.text()).toBe('invalid content type, only application/json is supported')
  })

  it('refuses a body over the limit with 413 and a clear message, and keeps serving', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [`0x${'00'.repeat(40_000)}`] })
    const res = await post(big)
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'request body too large: the limit is 65536 bytes (option bodyLimit)' },
    })
    const next = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] }))
    expect(await next.json()).toEqual({ jsonrpc: '2.0', id: 2, result: '0x0' })
  })

  it('answers GET without a body as a health check, and 405 to PUT', async () => {
    const health = await fetch(url)
    expect(health.status).toBe(200)
    expect(await health.text()).toBe('')
    expect((await fetch(url, { method: 'PUT', body: '{}' })).status).toBe(405)
  })

  it('sends CORS headers and answers preflight requests', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }))
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('returns the same URL when listen() is called again', async () => {
    expect((await devnet.listen()).rpcUrl).toBe(url)
  })
})

describe('lifecycle', () => {
  it('releases the port on close', async () => {
    const port = Number(new URL(url).port)
    await devnet.close()
    await expect(fetch(url)).rejects.toThrow()
    await new Promise<void>((resolve, reject) => {
      const probe = createServer().once('error', reject)
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()))
    })
  })

  it('creates and closes 200 devnets, half of them listening, without leaking handles', async () => {
    const before = process.getActiveResourcesInfo().length
    for (let i = 0; i < 200; i++) {
      const d = await createDevnet({ accounts: 2 })
      if (i % 2 === 0) await d.listen()
      expect(await d.rpc('eth_blockNumber')).toBe('0x0')
      await d.close()
    }
    // Closed sockets leave libuv's handle list on the next turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(before)
  })
})
