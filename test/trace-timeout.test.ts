/**
 * Time limits of traces (issue 23, item 2): `traceTimeout`, go-ethereum's tracer
 * option `timeout`, and `batchTraceTimeout` across the traces of one batch, each
 * answered -32000 `execution timeout: …` naming the limit. The trace is a 6,000,000-gas
 * loop (JUMPDEST PUSH1 0 JUMP), which traced takes seconds: the limits here are a few
 * hundred ms, so each test asserts which error comes, not how fast.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createDevnet, RpcError, type Devnet, type DevnetOptions } from '../src/index.ts'

const LOOP = '0x5b600056'
const CAP = '0x5b8d80'
const BY_TRACE = (limit: string) => `execution timeout: the trace ran past ${limit} (option traceTimeout, or the tracer option timeout)`
const BY_BATCH = (ms: number) => `execution timeout: the trace calls of this batch ran past ${ms} ms in all (option batchTraceTimeout)`

let devnet: Devnet | undefined

afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

async function start(options: DevnetOptions = {}): Promise<Devnet> {
  devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, console: false, ...options })
  return devnet
}

async function error(promise: Promise<unknown>): Promise<unknown> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(RpcError)
  return (err as RpcError).toJSON()
}

const loopCall = (d: Devnet) => ({ from: d.accounts[0]!.address, data: LOOP, gas: CAP })

describe('traceTimeout and the tracer option timeout', () => {
  it('debug_traceCall past traceTimeout answers execution timeout, for either tracer', async () => {
    const d = await start({ traceTimeout: 200 })
    expect(await error(d.rpc('debug_traceCall', [loopCall(d), 'latest']))).toEqual({ code: -32000, message: BY_TRACE('200 ms') })
    expect(await error(d.rpc('debug_traceCall', [loopCall(d), 'latest', { tracer: 'callTracer' }]))).toEqual({ code: -32000, message: BY_TRACE('200 ms') })
    // A short trace is served as before.
    expect(await d.rpc('debug_traceCall', [{ from: d.accounts[0]!.address, to: d.accounts[0]!.address }, 'latest'])).toMatchObject({ failed: false })
  })

  it('the tracer option timeout (a Go duration) overrides traceTimeout, for debug_traceTransaction too', async () => {
    const d = await start()
    expect(await error(d.rpc('debug_traceCall', [loopCall(d), 'latest', { timeout: '250ms' }]))).toEqual({ code: -32000, message: BY_TRACE('250 ms') })
    expect(await error(d.rpc('debug_traceCall', [loopCall(d), 'latest', { timeout: '0.3s', tracer: 'callTracer' }]))).toEqual({ code: -32000, message: BY_TRACE('300 ms') })
    // The loop mined (it fails, out of gas, as a transaction), then traced with a limit.
    const hash = await d.rpc('eth_sendTransaction', [{ ...loopCall(d), gasPrice: '0x0' }])
    expect(await d.rpc('eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x0' })
    expect(await error(d.rpc('debug_traceTransaction', [hash, { timeout: '1s', disableStack: true }]))).toEqual({ code: -32000, message: BY_TRACE('1 s') })
  })

  it('a malformed timeout is -32602 with go-ethereum texts, and nothing runs', async () => {
    const d = await start()
    const call = { from: d.accounts[0]!.address, to: d.accounts[0]!.address }
    expect(await error(d.rpc('debug_traceCall', [call, 'latest', { timeout: 'soon' }]))).toEqual({ code: -32602, message: 'invalid argument 2: time: invalid duration "soon"' })
    expect(await error(d.rpc('debug_traceCall', [call, 'latest', { timeout: '10' }]))).toEqual({ code: -32602, message: 'invalid argument 2: time: invalid duration "10"' })
    expect(await error(d.rpcUntyped('debug_traceCall', [call, 'latest', { timeout: 10 }]))).toEqual({
      code: -32602,
      message: 'invalid argument 2: json: cannot unmarshal number into Go struct field TraceConfig.timeout of type string',
    })
    expect(await d.rpc('debug_traceCall', [call, 'latest', { timeout: '1m30s' }])).toMatchObject({ failed: false })
  })
})

describe('batchTraceTimeout', () => {
  it('the traces of one batch share one budget: once spent, later traces stop at once; other calls are answered', async () => {
    const d = await start({ batchTraceTimeout: 300 })
    const { rpcUrl } = await d.listen()
    const trace = (id: number) => ({ jsonrpc: '2.0', id, method: 'debug_traceCall', params: [loopCall(d), 'latest', { disableStack: true }] })
    const batch = [trace(1), trace(2), { jsonrpc: '2.0', id: 3, method: 'eth_blockNumber' }, trace(4)]
    const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32000, message: BY_BATCH(300) } },
      { jsonrpc: '2.0', id: 2, error: { code: -32000, message: BY_BATCH(300) } },
      { jsonrpc: '2.0', id: 3, result: '0x0' },
      { jsonrpc: '2.0', id: 4, error: { code: -32000, message: BY_BATCH(300) } },
    ])
    // A new batch has a budget of its own.
    const next = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 5, method: 'debug_traceCall', params: [{ from: d.accounts[0]!.address, to: d.accounts[0]!.address }, 'latest'] }]),
    })
    expect(await next.json()).toMatchObject([{ id: 5, result: { failed: false } }])
  })

  it('a trace option timeout shorter than the batch budget names traceTimeout', async () => {
    const d = await start({ batchTraceTimeout: 60_000 })
    const { rpcUrl } = await d.listen()
    const batch = [{ jsonrpc: '2.0', id: 1, method: 'debug_traceCall', params: [loopCall(d), 'latest', { timeout: '200ms' }] }]
    const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    expect(await response.json()).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32000, message: BY_TRACE('200 ms') } }])
  })
})
