/**
 * Web pages cannot drive the dev accounts unasked (issue 23 item 5): WebSocket
 * upgrades check Origin against the JSON-RPC server's CORS origins (browsers apply
 * no CORS to WebSockets), and both servers answer only IP addresses and the `vhosts`
 * names in Host (DNS rebinding), as go-ethereum's --ws.origins and --http.vhosts.
 * Every refusal is a 403 with its reason, and the forged request changed nothing.
 */
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createDevnet, InvalidOptionError, type Devnet } from '../src/index.ts'
import { chainOf } from '../src/devnet/provider.ts'

let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

/** A raw HTTP request with any Host and Origin (fetch would not send a forged Host). */
function send(url: string, options: { method?: string; path?: string; host?: string; origin?: string; body?: string }): Promise<{ status: number; type: string | undefined; body: string }> {
  const { hostname, port } = new URL(url)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (options.host !== undefined) headers.host = options.host
  if (options.origin !== undefined) headers.origin = options.origin
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method: options.method ?? 'POST', path: options.path ?? '/', headers }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

/** Opens a WebSocket with the given Host and Origin: the open socket, or the refusal's status and body. */
function upgrade(url: string, headers: { host?: string; origin?: string }): Promise<{ ws: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string> })
    ws.once('open', () => resolve({ ws }))
    ws.once('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    ws.once('error', reject)
  })
}

/** One JSON-RPC call over an open socket. */
function call(ws: WebSocket, method: string, params: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  return new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data))))
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
  })
}

const sendTx = (from: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from, to: from, value: '0x1' }] })

describe('WebSocket upgrades check Origin against the CORS origins', () => {
  it('cors none (the issue): a page at evil.example cannot open a socket and send from dev account 0; a client without Origin can', async () => {
    devnet = await createDevnet({ accounts: 1, console: false })
    const { rpcUrl } = await devnet.listen({ cors: false })
    const port = new URL(rpcUrl).port
    const forged = await upgrade(rpcUrl, { origin: 'http://evil.example', host: `localhost:${port}` })
    expect(forged).toEqual({ status: 403, body: 'origin not allowed: http://evil.example (WebSocket origins are the CORS origins: none (cors is off); option cors)\n' })
    // The exact request: Origin and Host both evil.example. The Host check answers first.
    const rebinding = await upgrade(rpcUrl, { origin: 'http://evil.example', host: `evil.example:${port}` })
    expect(rebinding).toEqual({ status: 403, body: `invalid host specified: evil.example:${port} (the server answers IP addresses and localhost; option vhosts)\n` })
    expect(chainOf(devnet).height).toBe(0)
    // Non-browser clients (no Origin: ethers, viem, wscat) are served.
    const plain = await upgrade(rpcUrl, {})
    if (!('ws' in plain)) throw new Error(`refused: ${plain.status}`)
    expect(await call(plain.ws, 'eth_chainId', [])).toMatchObject({ result: '0x3039' })
    plain.ws.close()
  })

  it('a list of origins: those (any case) are served, others refused; cors * serves any', async () => {
    devnet = await createDevnet({ accounts: 1, console: false })
    const { rpcUrl } = await devnet.listen({ cors: ['https://dapp.example'] })
    for (const origin of ['https://dapp.example', 'HTTPS://DAPP.EXAMPLE']) {
      const ok = await upgrade(rpcUrl, { origin })
      if (!('ws' in ok)) throw new Error(`refused: ${ok.status}`)
      ok.ws.close()
    }
    for (const origin of ['https://evil.example', 'https://dapp.example.evil.example', 'null']) {
      expect(await upgrade(rpcUrl, { origin })).toEqual({ status: 403, body: `origin not allowed: ${origin} (WebSocket origins are the CORS origins: https://dapp.example; option cors)\n` })
    }
    await devnet.close()

    devnet = await createDevnet({ accounts: 1, console: false })
    const open = await devnet.listen()
    const any = await upgrade(open.rpcUrl, { origin: 'https://anything.example' })
    if (!('ws' in any)) throw new Error(`refused: ${any.status}`)
    any.ws.close()
  })
})

describe('both servers answer only IP addresses and the vhosts names', () => {
  it("JSON-RPC over HTTP: a rebinding name gets go-ethereum's plain-text 403 and sends nothing; loopback names, any IP and no port are served", async () => {
    devnet = await createDevnet({ accounts: 1, console: false })
    const { rpcUrl } = await devnet.listen({ cors: false })
    const port = new URL(rpcUrl).port
    const from = devnet.accounts[0]!.address
    const refused = await send(rpcUrl, { host: `evil.example:${port}`, origin: `http://evil.example:${port}`, body: sendTx(from) })
    expect(refused).toEqual({ status: 403, type: 'text/plain; charset=utf-8', body: `invalid host specified: evil.example:${port} (the server answers IP addresses and localhost; option vhosts)\n` })
    expect(chainOf(devnet).height).toBe(0)
    for (const host of [`localhost:${port}`, 'localhost', `LocalHost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, '[::1]', `10.1.2.3:${port}`]) {
      const served = await send(rpcUrl, { host, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
      expect([host, served.status, served.body]).toEqual([host, 200, '{"jsonrpc":"2.0","id":1,"result":"0x3039"}'])
    }
  })

  it('REST: a rebinding name gets 403 in the envelope and sends nothing', async () => {
    devnet = await createDevnet({ accounts: 1, console: false })
    const { restUrl } = await devnet.listen()
    const port = new URL(restUrl!).port
    const refused = await send(restUrl!, { path: '/api/v1/transaction', host: `evil.example:${port}`, body: '{"Action":"sendrawtransaction","Version":"1.0.0","Data":"00"}' })
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.body)).toEqual({
      Action: 'sendrawtransaction',
      Desc: 'ILLEGAL DATAFORMAT',
      Error: 41003,
      Result: `invalid host specified: evil.example:${port} (the server answers IP addresses and localhost; option vhosts)`,
      Version: '1.0.0',
    })
    const served = await send(restUrl!, { method: 'GET', path: '/api/v1/block/height', host: `localhost:${port}` })
    expect(JSON.parse(served.body)).toMatchObject({ Error: 0, Result: 0 })
  })

  it('vhosts: a list replaces localhost (IP addresses still served), * serves any name, and a bad value is an InvalidOptionError', async () => {
    devnet = await createDevnet({ accounts: 1, console: false })
    const { rpcUrl, restUrl } = await devnet.listen({ vhosts: ['Dev.Local'] })
    const chainId = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'
    expect((await send(rpcUrl, { host: 'dev.local:1', body: chainId })).status).toBe(200)
    expect((await send(rpcUrl, { host: '127.0.0.1', body: chainId })).status).toBe(200)
    expect(await send(rpcUrl, { host: 'localhost', body: chainId })).toMatchObject({
      status: 403,
      body: 'invalid host specified: localhost (the server answers IP addresses and dev.local; option vhosts)\n',
    })
    expect((await send(restUrl!, { method: 'GET', path: '/api/v1/block/height', host: 'dev.local' })).status).toBe(200)
    const ws = await upgrade(rpcUrl, { host: 'localhost' })
    expect(ws).toMatchObject({ status: 403 })
    await devnet.close()

    devnet = await createDevnet({ accounts: 1, console: false })
    const any = await devnet.listen({ vhosts: '*' })
    expect((await send(any.rpcUrl, { host: 'evil.example', body: chainId })).status).toBe(200)
    await devnet.close()

    devnet = await createDevnet({ accounts: 1, console: false })
    await expect(devnet.listen({ vhosts: [] })).rejects.toThrow(new InvalidOptionError('vhosts', [], "'*' or a host name, or a non-empty list of host names"))
  })
})
