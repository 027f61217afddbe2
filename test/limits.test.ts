/**
 * Every limit of README "Limits and guarantees", crossed: the documented error in the
 * surface's convention, nothing changed, and the next request served. Small limits
 * are set through the createDevnet options so that crossing them is cheap.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createDevnet, InvalidOptionError, RpcError, type Devnet, type DevnetOptions } from '../src/index.ts'

const GWEI = '0x3b9aca00'
let devnet: Devnet | undefined

afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

async function start(options: DevnetOptions): Promise<Devnet> {
  devnet = await createDevnet({ accounts: 2, nativeAccounts: 0, clock: 'frozen', genesisTimestamp: 1_700_000_000, ...options })
  return devnet
}

async function post(url: string, body: string, contentType = 'application/json'): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body })
  return { status: response.status, json: await response.json() }
}

async function rejection(promise: Promise<unknown>): Promise<RpcError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(RpcError)
  return err as RpcError
}

/** A fee-paying call without value: one log each, the synthetic fee Transfer. */
const transfer = (d: Devnet) => d.rpc('eth_sendTransaction', [{ from: d.accounts[0]!.address, to: d.accounts[1]!.address, value: '0x0', gasPrice: GWEI }])

describe('body size (bodyLimit), both servers', () => {
  it('JSON-RPC: HTTP 413 with -32600, then the next request is served', async () => {
    const d = await start({ bodyLimit: 1024 })
    const { rpcUrl } = await d.listen()
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data: `0x${'00'.repeat(1024)}` }, 'latest'] })
    expect(await post(rpcUrl, big)).toEqual({
      status: 413,
      json: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body too large: the limit is 1024 bytes (option bodyLimit)' } },
    })
    expect(await post(rpcUrl, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_blockNumber' }))).toEqual({ status: 200, json: { jsonrpc: '2.0', id: 2, result: '0x0' } })
  })

  it('REST: HTTP 413 with a 41003 envelope, then the next request is served', async () => {
    const d = await start({ bodyLimit: 1024 })
    const { restUrl } = await d.listen()
    const big = JSON.stringify({ Action: 'sendrawtransaction', Version: '1.0.0', Data: '00'.repeat(1024) })
    expect(await post(`${restUrl}/api/v1/transaction`, big)).toEqual({
      status: 413,
      json: { Action: 'sendrawtransaction', Desc: 'ILLEGAL DATAFORMAT', Error: 41003, Result: 'request body too large: the limit is 1024 bytes (option bodyLimit)', Version: '1.0.0' },
    })
    const next = await fetch(`${restUrl}/api/v1/block/height`)
    expect(await next.json()).toEqual({ Action: 'getblockheight', Desc: 'SUCCESS', Error: 0, Result: 0, Version: '1.0.0' })
  })
})

describe('batch length (batchLimit)', () => {
  it('a batch above the limit: one -32600 `batch too large` with the first id, none of it run; a batch at the limit is answered', async () => {
    const d = await start({ batchLimit: 3 })
    const { rpcUrl } = await d.listen()
    const send = { jsonrpc: '2.0', method: 'eth_sendTransaction', params: [{ from: d.accounts[0]!.address, to: d.accounts[1]!.address, value: '0x1', gasPrice: GWEI }] }
    const batch = [send, { ...send, id: 7 }, { ...send, id: 8 }, { ...send, id: 9 }]
    expect(await post(rpcUrl, JSON.stringify(batch))).toEqual({
      status: 200,
      json: [{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'batch too large: the limit is 3 requests (option batchLimit)' } }],
    })
    expect(await d.rpc('eth_blockNumber')).toBe('0x0')
    const ok = await post(rpcUrl, JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber' }))))
    expect(ok.json).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: '0x0' })))
  })

  it('defaults to 1,000 (go-ethereum)', async () => {
    const d = await start({})
    const { rpcUrl } = await d.listen()
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' })))
    expect(((await post(rpcUrl, batch(1000))).json as unknown[]).length).toBe(1000)
    expect((await post(rpcUrl, batch(1001))).json).toMatchObject([{ id: 0, error: { code: -32600, message: 'batch too large: the limit is 1000 requests (option batchLimit)' } }])
  })
})

describe('batch answers (batchResponseLimit)', () => {
  it('once the answers pass the limit, the rest of the batch gets -32003 without running; the next request is served', async () => {
    const d = await start({ batchResponseLimit: 100 })
    const { rpcUrl } = await d.listen()
    const call = (id: number | undefined, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params })
    const send = [{ from: d.accounts[0]!.address, to: d.accounts[1]!.address, value: '0x1', gasPrice: GWEI }]
    const batch = [
      call(1, 'eth_chainId'),
      call(2, 'eth_getBlockByNumber', ['latest', true]),
      call(3, 'eth_sendTransaction', send),
      call(undefined, 'eth_sendTransaction', send),
      call(4, 'eth_chainId'),
    ]
    const tooLarge = { code: -32003, message: "response too large: the batch's answers passed 100 bytes (option batchResponseLimit)" }
    expect((await post(rpcUrl, JSON.stringify(batch))).json).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x3039' },
      { jsonrpc: '2.0', id: 2, result: expect.objectContaining({ number: '0x0' }) },
      { jsonrpc: '2.0', id: 3, error: tooLarge },
      { jsonrpc: '2.0', id: 4, error: tooLarge },
    ])
    // Neither send ran.
    expect(await d.rpc('eth_blockNumber')).toBe('0x0')
    expect((await post(rpcUrl, JSON.stringify([call(5, 'eth_chainId')]))).json).toEqual([{ jsonrpc: '2.0', id: 5, result: '0x3039' }])
  })
})

describe('string length in params (hexLimit)', () => {
  it('a longer string gets -32602 before any parser runs; a string at the limit passes', async () => {
    const d = await start({ hexLimit: 64 })
    const err = await rejection(d.rpc('eth_sendRawTransaction', [`0x${'ab'.repeat(33)}`]))
    expect(err.toJSON()).toEqual({ code: -32602, message: 'invalid argument 0: string of 68 characters, longer than the limit of 64 hex digits (option hexLimit)' })
    const nested = await rejection(d.rpc('eth_call', [{ to: d.accounts[1]!.address, data: `0x${'00'.repeat(40)}` }, 'latest']))
    expect(nested.toJSON()).toEqual({ code: -32602, message: 'invalid argument 0: string of 82 characters, longer than the limit of 64 hex digits (option hexLimit)' })
    expect(await d.rpc('eth_call', [{ to: d.accounts[1]!.address, data: `0x${'00'.repeat(32)}` }, 'latest'])).toBe('0x')
  })
})

describe('nesting (jsonDepthLimit)', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

  it('JSON-RPC over HTTP: a body nested deeper is a -32700 parse error found without parsing it; the next request is served', async () => {
    const d = await start({ jsonDepthLimit: 10 })
    const { rpcUrl } = await d.listen()
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: JSON.parse(deep(10)) as unknown })
    expect(await post(rpcUrl, body)).toEqual({
      status: 200,
      json: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error: JSON nested deeper than 10 levels (option jsonDepthLimit)' } },
    })
    // Brackets inside strings do not count.
    const inString = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'web3_sha3', params: [`0x${'00'.repeat(4)}`], note: '[[[[[[[[[[[[[[[[' })
    expect(await post(rpcUrl, inString)).toMatchObject({ status: 200, json: { id: 2, result: expect.stringMatching(/^0x/) } })
  })

  it('a 4 MiB body of `[` (the default limit, 100) is refused at once, and the server keeps serving', async () => {
    const d = await start({})
    const { rpcUrl, restUrl } = await d.listen()
    const t0 = performance.now()
    expect((await post(rpcUrl, deep(2 * 1024 * 1024))).json).toMatchObject({ error: { code: -32700, message: 'parse error: JSON nested deeper than 100 levels (option jsonDepthLimit)' } })
    expect((await post(`${restUrl}/api/v1/transaction`, deep(2 * 1024 * 1024))).json).toEqual({
      Action: 'sendrawtransaction',
      Desc: 'ILLEGAL DATAFORMAT',
      Error: 41003,
      Result: 'JSON nested deeper than 100 levels (option jsonDepthLimit)',
      Version: '1.0.0',
    })
    console.log(`[limits] two 4 MiB nested bodies refused in ${(performance.now() - t0).toFixed(0)} ms`)
    expect((await post(rpcUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }))).json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x3039' })
  })

  it('by function call: params nested deeper get -32602', async () => {
    const d = await start({ jsonDepthLimit: 5 })
    let value: unknown = 'latest'
    for (let i = 0; i < 6; i++) value = { blockNumber: value }
    const err = await rejection(d.rpcUntyped('eth_getBalance', [d.accounts[0]!.address, value]))
    expect(err.toJSON()).toEqual({ code: -32602, message: 'invalid argument 1: nested deeper than 5 levels (option jsonDepthLimit)' })
    expect(await d.rpc('eth_getBalance', [d.accounts[0]!.address, { blockNumber: 'latest' }])).toMatch(/^0x/)
  })
})

describe('eth_getLogs block range (logsBlockRange) and result count (logsResultLimit)', () => {
  it("a span wider than the limit gets the real node's -32000 text; at the limit it is served", async () => {
    const d = await start({ logsBlockRange: 10 })
    await d.mine(20)
    const err = await rejection(d.rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0xb' }]))
    expect(err.toJSON()).toEqual({ code: -32000, message: 'the span between fromBlock and toBlock must be less than or equal to 10' })
    expect(await d.rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0xb' }])).toEqual([])
  })

  it('more matches than the limit: -32000 for eth_getLogs, eth_getFilterLogs and eth_getFilterChanges; the filter keeps its place', async () => {
    const d = await start({ logsResultLimit: 2 })
    const filter = await d.rpc('eth_newFilter', [{ fromBlock: '0x0' }])
    for (let i = 0; i < 3; i++) await transfer(d)
    const message = 'query returned more than 2 results (option logsResultLimit)'
    expect((await rejection(d.rpc('eth_getLogs', [{ fromBlock: '0x0' }]))).toJSON()).toEqual({ code: -32000, message })
    expect((await rejection(d.rpc('eth_getFilterLogs', [filter]))).toJSON()).toEqual({ code: -32000, message })
    expect((await rejection(d.rpc('eth_getFilterChanges', [filter]))).toJSON()).toEqual({ code: -32000, message })
    expect(await d.rpc('eth_getLogs', [{ fromBlock: '0x2' }])).toHaveLength(2)
    // Still above the limit: the failed poll did not move the filter past the logs.
    await expect(d.rpc('eth_getFilterChanges', [filter])).rejects.toMatchObject({ code: -32000, message })
  })
})

describe('wide log filters', () => {
  it('100,000 addresses or topic alternatives are looked up, not compared one by one, with the same answer', async () => {
    const d = await start({})
    for (let i = 0; i < 5; i++) await transfer(d)
    const gasToken = '0x0000000000000000000000000000000000000002'
    const transferTopic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
    const few = await d.rpc('eth_getLogs', [{ fromBlock: '0x0', address: gasToken, topics: [transferTopic] }])
    expect(few).toHaveLength(5)
    const addresses = Array.from({ length: 100_000 }, (_, i) => `0x${(i + 0x1000).toString(16).padStart(40, '0')}`)
    const topics = Array.from({ length: 100_000 }, (_, i) => `0x${(i + 1).toString(16).padStart(64, '0')}`)
    const t0 = performance.now()
    expect(await d.rpc('eth_getLogs', [{ fromBlock: '0x0', address: [...addresses, gasToken], topics: [[...topics, transferTopic]] }])).toEqual(few)
    expect(await d.rpc('eth_getLogs', [{ fromBlock: '0x0', address: addresses }])).toEqual([])
    console.log(`[limits] two eth_getLogs with 100,000 addresses and alternatives in ${(performance.now() - t0).toFixed(0)} ms`)
  })
})

describe('number of filters (filterLimit)', () => {
  it('installing above the limit gets -32000; after an uninstall the next one installs', async () => {
    const d = await start({ filterLimit: 3 })
    const ids = [await d.rpc('eth_newBlockFilter'), await d.rpc('eth_newPendingTransactionFilter'), await d.rpc('eth_newFilter', [{}])]
    const err = await rejection(d.rpc('eth_newBlockFilter'))
    expect(err.toJSON()).toEqual({ code: -32000, message: 'too many filters: the limit is 3 (option filterLimit); uninstall some with eth_uninstallFilter' })
    expect(await d.rpcUntyped('eth_uninstallFilter', [ids[0]])).toBe(true)
    expect(await d.rpc('eth_newBlockFilter')).toBe('0x4')
  })
})

describe('number of subscriptions (subscriptionLimit)', () => {
  it('subscribing above the limit gets -32000; after an unsubscribe the next one starts', async () => {
    const d = await start({ subscriptionLimit: 2 })
    const first = await d.rpc('eth_subscribe', ['newHeads'])
    await d.rpc('eth_subscribe', ['logs', {}])
    const err = await rejection(d.rpc('eth_subscribe', ['newPendingTransactions']))
    expect(err.toJSON()).toEqual({ code: -32000, message: 'too many subscriptions (limit 2)' })
    expect(await d.rpc('eth_unsubscribe', [first])).toBe(true)
    expect(await d.rpc('eth_subscribe', ['newHeads'])).toMatch(/^0x[0-9a-f]{32}$/)
  })
})

describe('WebSocket frames (jsonDepthLimit, bodyLimit)', () => {
  it('a frame nested deeper is a -32700 parse error; the socket keeps serving', async () => {
    const { WebSocket } = await import('ws')
    const d = await start({ jsonDepthLimit: 10 })
    const { rpcUrl } = await d.listen()
    const ws = new WebSocket(rpcUrl.replace('http', 'ws'))
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const answers: unknown[] = []
    const next = () => new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))))
    const sendDeep = next()
    ws.send(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`)
    answers.push(await sendDeep)
    const sendOk = next()
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'eth_chainId' }))
    answers.push(await sendOk)
    ws.close()
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error: JSON nested deeper than 10 levels (option jsonDepthLimit)' } },
      { jsonrpc: '2.0', id: 5, result: '0x3039' },
    ])
  })
})

describe('trace size (traceSizeLimit)', () => {
  it('a struct-log trace beyond the limit gets -32000 with what to do instead; the callTracer and a smaller trace are served', async () => {
    const d = await start({ traceSizeLimit: 20_000 })
    const hash = await transfer(d)
    const { Token } = await import('../fixtures/index.ts')
    const { Interface } = await import('ethers')
    const data = Token.bytecode + new Interface(Token.abi as never).encodeDeploy(['T', 'T', 1000n]).slice(2)
    const deploy = await d.rpc('eth_sendTransaction', [{ from: d.accounts[0]!.address, data, gas: '0x2dc6c0', gasPrice: GWEI }])
    const err = await rejection(d.rpc('debug_traceTransaction', [deploy]))
    expect(err.toJSON()).toEqual({
      code: -32000,
      message: 'trace larger than 20000 bytes (option traceSizeLimit): trace with disableStack, without enableMemory, or with the callTracer',
    })
    expect(await d.rpc('debug_traceTransaction', [deploy, { tracer: 'callTracer' }])).toMatchObject({ type: 'CREATE' })
    expect(await d.rpc('debug_traceTransaction', [hash])).toMatchObject({ failed: false, structLogs: [] })
  })
})

describe('blocks per mine call (mineLimit)', () => {
  it('a mine call above the limit is refused before anything is reserved; at the limit the head is built and served', async () => {
    const d = await start({ mineLimit: 1000 })
    const message = 'cannot mine 1001 blocks in one call: the limit is 1000 (option mineLimit); every block is built and kept in memory (about 700 bytes each) once the head is read'
    expect((await rejection(d.rpc('hardhat_mine', ['0x3e9']))).toJSON()).toEqual({ code: -32000, message })
    await expect(d.mine(1001)).rejects.toThrow(message)
    expect(await d.rpc('eth_blockNumber')).toBe('0x0')
    expect(await d.rpc('hardhat_mine', ['0x3e8'])).toBe(true)
    expect(await d.rpc('eth_getBlockByNumber', ['latest', false])).toMatchObject({ number: '0x3e8' })
  })
})

describe('block timestamps fit the native header (u32, reference §1.4.1)', () => {
  it('time controls that would stamp a block after 2106 are refused; the chain is untouched and mines on', async () => {
    const d = await start({})
    const beyond = (t: number) => `timestamp ${t} is beyond the block header's u32 Timestamp (at most 4294967295, in 2106)`
    const now = 1_700_000_000
    for (const [method, params, at] of [
      ['evm_increaseTime', [2 ** 32], now + 2 ** 32],
      ['evm_setNextBlockTimestamp', [2 ** 32], 2 ** 32],
      ['evm_mine', [2 ** 32], 2 ** 32],
      ['hardhat_mine', ['0x2', '0xffffffff'], now + 1 + 0xffffffff],
      ['anvil_setBlockTimestampInterval', [2 ** 32], now + 2 ** 32],
    ] as const) {
      expect((await rejection(d.rpc(method, [...params]))).toJSON(), method).toEqual({ code: -32000, message: beyond(at) })
    }
    // These used to be accepted: the block's hash covered the time truncated to 32 bits while both JSON views showed it whole.
    expect(await d.rpc('eth_blockNumber')).toBe('0x0')
    await d.rpc('evm_setNextBlockTimestamp', [0xffffffff])
    await d.mine()
    expect((await d.rest.get('/api/v1/block/details/height/1')).Result).toMatchObject({ Header: { Timestamp: 0xffffffff } })
  })
})

describe('transactions the devnet signs fit the native transaction (u32 Nonce, reference §2.4)', () => {
  it("eth_sendTransaction and impersonated sends at a nonce above 2^32 - 1 get the node's refusal, as a raw one does", async () => {
    const d = await start({})
    const [a, b] = d.accounts
    await d.rpc('hardhat_setNonce', [a!.address, '0x200000000'])
    const message = 'nonce :8589934592 or GasPrice :1000000000 is too big'
    const send = { from: a!.address, to: b!.address, value: '0x1', gasPrice: GWEI }
    expect((await rejection(d.rpc('eth_sendTransaction', [send]))).toJSON()).toEqual({ code: -32000, message })
    const stranger = '0x00000000000000000000000000000000000000aa'
    await d.rpc('hardhat_setNonce', [stranger, '0x200000000'])
    await d.rpc('hardhat_setBalance', [stranger, '0xde0b6b3a7640000'])
    await d.rpc('hardhat_impersonateAccount', [stranger])
    expect((await rejection(d.rpc('eth_sendTransaction', [{ ...send, from: stranger }]))).toJSON()).toEqual({ code: -32000, message })
    // They used to be mined, with REST showing the nonce truncated to 32 bits (0) beside the full one in the RLP.
    expect(await d.rpc('eth_blockNumber')).toBe('0x0')
  })
})

describe('CLI flags', () => {
  it('--body-limit and --batch-limit reach the servers; a host other than loopback is warned about', async () => {
    const { spawn } = await import('node:child_process')
    const cli = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('../src/cli.ts', import.meta.url).pathname, '--host', '0.0.0.0', '--rpcport', '0', '--accounts', '1', '--quiet', '--body-limit', '1000', '--batch-limit', '2'],
      { stdio: 'pipe' },
    )
    let out = ''
    let err = ''
    cli.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    cli.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    try {
      // stdout and stderr are separate pipes: the warning (stderr) may arrive after the banner.
      for (const until = Date.now() + 20_000; !/JSON-RPC\s+http:\/\/0\.0\.0\.0:(\d+)/.test(out) || !err.includes('warning'); ) {
        if (Date.now() > until) throw new Error(`the CLI did not start: ${out} ${err}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      const url = `http://127.0.0.1:${/JSON-RPC\s+http:\/\/0\.0\.0\.0:(\d+)/.exec(out)![1]}`
      expect(err).toContain('dualnet: warning: listening on 0.0.0.0, not loopback')
      const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' })
      expect((await post(url, JSON.stringify([call(1), call(2), call(3)]))).json).toEqual([
        { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large: the limit is 2 requests (option batchLimit)' } },
      ])
      expect((await post(url, JSON.stringify({ ...call(4), pad: 'x'.repeat(1000) }))).status).toBe(413)
      expect((await post(url, JSON.stringify([call(5), call(6)]))).json).toEqual([
        { jsonrpc: '2.0', id: 5, result: '0x3039' },
        { jsonrpc: '2.0', id: 6, result: '0x3039' },
      ])
    } finally {
      cli.kill('SIGTERM')
      await new Promise((resolve) => cli.once('exit', resolve))
    }
  })
})

describe('option checks', () => {
  it('a limit that is not a positive whole number is an InvalidOptionError at creation', async () => {
    await expect(createDevnet({ batchLimit: 0 })).rejects.toThrow(new InvalidOptionError('batchLimit', 0, 'a whole number from 1 to 2,147,483,647'))
    await expect(createDevnet({ logsResultLimit: 1.5 })).rejects.toThrow(InvalidOptionError)
  })
})
