/**
 * REST answers every request in its envelope (issue 23 item 6), those Node's HTTP
 * parser refuses before any route runs included: a URL or headers over 16 KiB (431)
 * and a request that is not HTTP (400) get 41003 ILLEGAL DATAFORMAT with `Result: ""`
 * and the node's CORS headers, not fastify's own JSON; the server serves the next one.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

let devnet: Devnet
let restUrl: string
beforeAll(async () => {
  devnet = await createDevnet({ accounts: 1, console: false })
  restUrl = (await devnet.listen()).restUrl!
})
afterAll(() => devnet.close())

const ILLEGAL = { Action: '', Desc: 'ILLEGAL DATAFORMAT', Error: 41003, Result: '', Version: '1.0.0' }

/** Writes `raw` to the REST port and reads until the server closes the connection. */
function raw(bytes: string): Promise<string> {
  const { hostname, port } = new URL(restUrl)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString()))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.end(bytes)
  })
}

describe('requests Node refuses before fastify', () => {
  it('a URL over 16 KiB: HTTP 431 with the envelope, then the next request is served', async () => {
    const response = await fetch(`${restUrl}/api/v1/balancev2/${'A'.repeat(20_000)}`)
    expect(response.status).toBe(431)
    expect(response.headers.get('content-type')).toBe('application/json;charset=utf-8')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual(ILLEGAL)
    expect(await (await fetch(`${restUrl}/api/v1/block/height`)).json()).toMatchObject({ Error: 0, Result: 0 })
  })

  it('headers over 16 KiB: 431; bytes that are not HTTP: 400; both in the envelope, the connection closed', async () => {
    const huge = await raw(`GET /api/v1/block/height HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`)
    expect(huge.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toEqual(ILLEGAL)
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n')
    expect(garbage.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request')
    expect(garbage).toContain('\r\nConnection: close\r\n')
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toEqual(ILLEGAL)
    expect(await (await fetch(`${restUrl}/api/v1/block/height`)).json()).toMatchObject({ Error: 0, Result: 0 })
  })
})
