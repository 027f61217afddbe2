/**
 * The request lines of `listen({ log })`, which the CLI prints (issue 22 item 6):
 * JSON-RPC lines name the method (a batch: its size) and an error's code and message;
 * REST lines the route's Action and Error code. Exact shapes, with the duration
 * replaced by `<t>` (it varies).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

let devnet: Devnet
let rpcUrl: string
let restUrl: string
const lines: string[] = []

beforeAll(async () => {
  devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, console: false, bodyLimit: 1024 })
  ;({ rpcUrl, restUrl } = (await devnet.listen({ log: (line) => lines.push(line) })) as { rpcUrl: string; restUrl: string })
})
afterAll(() => devnet.close())

/** Sends `body` and resolves to the line it logged, its duration as `<t>`. */
async function lineOf(url: string, init: RequestInit): Promise<string> {
  const before = lines.length
  await (await fetch(url, init)).text()
  // onResponse runs after the answer is written: the line may come a moment after the body.
  for (let i = 0; lines.length === before && i < 500; i++) await new Promise((r) => setTimeout(r, 10))
  expect(lines.length).toBe(before + 1)
  return lines[before]!.replace(/ \d+\.\dms/, ' <t>')
}
const post = (body: unknown, type = 'application/json'): RequestInit => ({ method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) })
const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params })

describe('JSON-RPC lines', () => {
  it('a call: the method and the time', async () => {
    expect(await lineOf(rpcUrl, post(call('eth_chainId')))).toBe('rpc eth_chainId <t>')
  })

  it('an error: its code and message', async () => {
    expect(await lineOf(rpcUrl, post(call('eth_getBalanse')))).toBe('rpc eth_getBalanse <t> error -32601 the method eth_getBalanse does not exist/is not available')
    expect(await lineOf(rpcUrl, post(call('eth_getBalance', ['0x12'])))).toMatch(/^rpc eth_getBalance <t> error -32602 /)
  })

  it('a batch: its size, and how many failed with the first error', async () => {
    expect(await lineOf(rpcUrl, post([call('eth_chainId', [], 1), call('net_version', [], 2), call('eth_blockNumber', [], 3)]))).toBe('rpc batch(3) <t>')
    expect(await lineOf(rpcUrl, post([call('eth_chainId', [], 1), call('eth_nope', [], 2), call('eth_nada', [], 3)]))).toBe(
      'rpc batch(3) <t> 2 errors, first -32601 the method eth_nope does not exist/is not available',
    )
  })

  it('what is no call: parse errors with their code, HTTP statuses other than 200', async () => {
    expect(await lineOf(rpcUrl, post('{"jsonrpc"'))).toBe('rpc POST / <t> error -32700 parse error')
    expect(await lineOf(rpcUrl, post('x'.repeat(2000)))).toBe('rpc POST / 413 <t> error -32600 request body too large: the limit is 1024 bytes (option bodyLimit)')
    expect(await lineOf(rpcUrl, post('{}', 'text/plain'))).toBe('rpc POST / 415 <t>')
    expect(await lineOf(rpcUrl, { method: 'GET' })).toBe('rpc GET / <t>')
  })
})

describe('REST lines', () => {
  it("the route's Action and Error code; the Desc when the code is not 0", async () => {
    expect(await lineOf(`${restUrl}/api/v1/block/height`, { method: 'GET' })).toBe('rest GET /api/v1/block/height <t> getblockheight Error 0')
    expect(await lineOf(`${restUrl}/api/v1/balance/nope`, { method: 'GET' })).toBe('rest GET /api/v1/balance/nope <t> getbalance Error 42002 INVALID PARAMS')
    expect(await lineOf(`${restUrl}/api/v1/nothing`, { method: 'GET' })).toBe('rest GET /api/v1/nothing 404 <t>')
  })
})
