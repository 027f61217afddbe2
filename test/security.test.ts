/**
 * Security defaults: loopback binding, CORS of the JSON-RPC server (`*` by default,
 * configurable), prototype keys in JSON input changing nothing, and no stack trace or
 * internal path in what goes over the wire.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { fingerprint, leaksInternals } from './fuzz-support.ts'

let devnet: Devnet | undefined

afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

const rpcBody = (method: string, params: string) => `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
}

describe('binding and CORS', () => {
  it('listens on 127.0.0.1 unless told otherwise', async () => {
    devnet = await createDevnet({ accounts: 1 })
    const { rpcUrl, restUrl } = await devnet.listen()
    expect(new URL(rpcUrl).hostname).toBe('127.0.0.1')
    expect(new URL(restUrl!).hostname).toBe('127.0.0.1')
  })

  it('JSON-RPC answers any origin by default, and only the configured ones when told', async () => {
    devnet = await createDevnet({ accounts: 1 })
    const open = await devnet.listen()
    const any = await post(open.rpcUrl, rpcBody('eth_chainId', '[]'), { origin: 'https://dapp.example' })
    expect(any.headers.get('access-control-allow-origin')).toBe('*')
    await devnet.close()

    devnet = await createDevnet({ accounts: 1 })
    const { rpcUrl } = await devnet.listen({ cors: ['https://dapp.example'] })
    const allowed = await post(rpcUrl, rpcBody('eth_chainId', '[]'), { origin: 'https://dapp.example' })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://dapp.example')
    const other = await post(rpcUrl, rpcBody('eth_chainId', '[]'), { origin: 'https://evil.example' })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    // CORS decides what a browser may read; the answer itself is the same.
    expect(await other.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x3039' })
    await devnet.close()

    devnet = await createDevnet({ accounts: 1 })
    const none = await devnet.listen({ cors: false })
    expect((await post(none.rpcUrl, rpcBody('eth_chainId', '[]'), { origin: 'https://dapp.example' })).headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('__proto__ and constructor keys change nothing', () => {
  it('in JSON-RPC params and envelopes over HTTP, and REST bodies', async () => {
    devnet = await createDevnet({ accounts: 2, clock: 'frozen', genesisTimestamp: 1_700_000_000 })
    const { rpcUrl, restUrl } = await devnet.listen()
    const before = fingerprint(devnet)
    const [a, b] = devnet.accounts
    const bodies = [
      rpcBody('eth_call', `[{"to":"${b!.address}","__proto__":{"from":"${a!.address}","value":"0x1"},"constructor":{"prototype":{"gas":"0x1"}}},"latest"]`),
      rpcBody('eth_getLogs', '[{"__proto__":{"fromBlock":"0x0"},"constructor":{"prototype":{"address":"0x00"}}}]'),
      rpcBody('eth_sendTransaction', `[{"__proto__":{"from":"${a!.address}","to":"${b!.address}","value":"0x1"}}]`),
      '{"__proto__":{"jsonrpc":"2.0","method":"eth_blockNumber","id":1}}',
      `[{"jsonrpc":"2.0","id":2,"method":"eth_chainId","__proto__":{"params":[1,2,3]}}]`,
    ]
    const answers = await Promise.all(bodies.map(async (body) => (await post(rpcUrl, body)).json()))
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x' },
      { jsonrpc: '2.0', id: 1, result: [] },
      // `from` only under __proto__: not a field of the call object.
      { jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: expect.any(Number) }) },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
      [{ jsonrpc: '2.0', id: 2, result: '0x3039' }],
    ])
    const rest = await (await fetch(`${restUrl}/api/v1/transaction`, { method: 'POST', body: '{"__proto__":{"Data":"00"},"constructor":{"prototype":{"Data":"00"}}}' })).json()
    expect(rest).toEqual({ Action: 'sendrawtransaction', Desc: 'INVALID PARAMS', Error: 42002, Result: '', Version: '1.0.0' })
    expect(({} as Record<string, unknown>).from).toBeUndefined()
    expect(({} as Record<string, unknown>).Data).toBeUndefined()
    expect(fingerprint(devnet)).toBe(before)
  })
})

describe('nothing internal on the wire', () => {
  it('errors of every kind carry no stack frame or file path', async () => {
    devnet = await createDevnet({ accounts: 1 })
    const { rpcUrl, restUrl } = await devnet.listen()
    const texts = await Promise.all([
      post(rpcUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"value":"0xffffffffffffffffffffffffffffffffffffffff"},"latest"]}').then((r) => r.text()),
      post(rpcUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["0xf8"]}').then((r) => r.text()),
      post(rpcUrl, '{not json').then((r) => r.text()),
      post(rpcUrl, 'x', { 'content-type': 'text/plain' }).then((r) => r.text()),
      fetch(`${restUrl}/api/v1/transaction`, { method: 'POST', body: '{"Data":"00d1ffff"}' }).then((r) => r.text()),
      fetch(`${restUrl}/api/v1/block/details/height/99999999999999999999`).then((r) => r.text()),
    ])
    for (const text of texts) expect(leaksInternals(text), text).toBe(false)
  })
})
