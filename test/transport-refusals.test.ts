/**
 * Requests refused before any route are answered in each server's convention (issue
 * 35, item 8): a REST URL whose percent-escapes do not decode (fastify's FST_ERR_BAD_URL
 * JSON before) and an HTTP/1.1 request without Host (Node's empty 400 before) get the
 * envelope, 41003 ILLEGAL DATAFORMAT with the reason; on the JSON-RPC server the
 * missing Host and what Node's parser refuses get a JSON-RPC error object, -32600. Both
 * servers serve the next request. (URLs and headers over 16 KiB: test/rest-transport.test.ts.)
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

let devnet: Devnet
let restUrl: string
let rpcUrl: string
beforeAll(async () => {
  devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, console: false })
  ;({ rpcUrl, restUrl } = (await devnet.listen()) as { rpcUrl: string; restUrl: string })
})
afterAll(() => devnet.close())

/** Writes `bytes` to `url`'s port and reads one answer: status line, lower-cased headers, body (by Content-Length). */
function raw(url: string, bytes: string): Promise<{ status: string; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let text = ''
    const done = () => {
      const head = text.slice(0, text.indexOf('\r\n\r\n'))
      const [status, ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      const body = text.slice(head.length + 4)
      resolve({ status: status!, headers, body })
    }
    socket.on('data', (chunk) => {
      text += chunk.toString()
      const end = text.indexOf('\r\n\r\n')
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1])
      if (end !== -1 && Number.isFinite(length) && text.length >= end + 4 + length) {
        socket.destroy()
        done()
      }
    })
    socket.on('end', done)
    socket.on('error', reject)
    socket.write(bytes)
  })
}

const ILLEGAL = (Result: string) => ({ Action: '', Desc: 'ILLEGAL DATAFORMAT', Error: 41003, Result, Version: '1.0.0' })
const BAD_ESCAPE = 'invalid URL: a percent-escape that is not %XX of UTF-8'

describe('REST: every refusal before a route in the envelope', () => {
  it.each([
    ['GET /api/v1/block/height%zz', 'GET /api/v1/block/height%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['GET with a UTF-8 escape that does not decode', 'GET /api/v1/balancev2/%C3%28 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['POST /api/v1/transaction%zz with a body', 'POST /api/v1/transaction%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'],
  ])('%s: HTTP 400, 41003 with the reason, CORS headers', async (_name, request) => {
    const answer = await raw(restUrl, request)
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.headers['content-type']).toBe('application/json;charset=utf-8')
    expect(answer.headers['access-control-allow-origin']).toBe('*')
    expect(JSON.parse(answer.body)).toEqual(ILLEGAL(BAD_ESCAPE))
  })

  it('HTTP/1.1 without Host: 400, 41003 "missing required Host header", the connection closed; HTTP/1.0 without Host is served', async () => {
    const answer = await raw(restUrl, 'GET /api/v1/block/height HTTP/1.1\r\n\r\n')
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.headers.connection).toBe('close')
    expect(JSON.parse(answer.body)).toEqual(ILLEGAL('missing required Host header'))
    const old = await raw(restUrl, 'GET /api/v1/block/height HTTP/1.0\r\n\r\n')
    expect(JSON.parse(old.body)).toMatchObject({ Action: 'getblockheight', Error: 0, Result: 0 })
  })

  it('the next request is served', async () => {
    await raw(restUrl, 'GET /%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    expect(await (await fetch(`${restUrl}/api/v1/block/height`)).json()).toMatchObject({ Error: 0, Result: 0 })
  })
})

describe('JSON-RPC: the same refusals as JSON-RPC error objects', () => {
  it('HTTP/1.1 without Host: 400 with -32600 "missing required Host header"; HTTP/1.0 without Host is served', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
    const answer = await raw(rpcUrl, `POST / HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`)
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.headers.connection).toBe('close')
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'missing required Host header' } })
    const old = await raw(rpcUrl, `POST / HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`)
    expect(JSON.parse(old.body)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x3039' })
  })

  it('bytes that are not HTTP: 400 with -32600, headers over 16 KiB: 431 with -32600; the next request is served', async () => {
    const garbage = await raw(rpcUrl, 'NOT HTTP AT ALL\r\n\r\n')
    expect(garbage.status).toBe('HTTP/1.1 400 Bad Request')
    expect(JSON.parse(garbage.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid HTTP request' } })
    const huge = await raw(rpcUrl, `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`)
    expect(huge.status).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(JSON.parse(huge.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request header fields too large: the URL and headers exceed 16 KiB' } })
    const next = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] }) })
    expect(await next.json()).toEqual({ jsonrpc: '2.0', id: 2, result: '0x3039' })
  })
})
