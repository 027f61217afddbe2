/**
 * traceSizeLimit at its edge (issue 23, item 3), for both trace methods and both
 * tracers: a trace whose estimated size is exactly the limit is answered, one byte
 * less answers the documented -32000 size error. The loop runs out of gas, so the
 * last frame ends with an error the struct logger writes onto its last log: past the
 * limit that log is gone, which used to answer a JavaScript TypeError ("Cannot set
 * properties of undefined (setting 'error')").
 */
import { afterEach, describe, expect, it } from 'vitest'
import { Interface } from 'ethers'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'
import { estimatedSize, type StructLogJson } from '../src/evm/tracing/structLogger.ts'
import type { CallFrameJson } from '../src/evm/tracing/callTracer.ts'
import { Token } from '../fixtures/index.ts'

/** JUMPDEST PUSH1 0 JUMP: init code that loops until its gas runs out. */
const LOOP = '0x5b600056'
/** 53,052 intrinsic (a creation) + 6,948 for the loop: about 1,700 steps, the last one out of gas. */
const LOOP_GAS = '0xea60'
const STRUCT_ERROR = (limit: number) => `trace larger than ${limit} bytes (option traceSizeLimit): trace with disableStack, without enableMemory, or with the callTracer`
const CALL_ERROR = (limit: number) => `trace larger than ${limit} bytes (option traceSizeLimit): trace with the callTracer's onlyTopCall, or without withLog`

const devnets: Devnet[] = []

afterEach(async () => {
  await Promise.all(devnets.splice(0).map((d) => d.close()))
})

async function start(traceSizeLimit?: number): Promise<Devnet> {
  const d = await createDevnet({ accounts: 1, nativeAccounts: 0, clock: 'frozen', genesisTimestamp: 1_700_000_000, console: false, traceSizeLimit })
  devnets.push(d)
  return d
}

/** The same chain at each limit: genesis, then the transaction of `data` (mined, failed or not). */
async function chainWith(data: string, gas: string, traceSizeLimit?: number): Promise<{ d: Devnet; hash: string; call: Record<string, string> }> {
  const d = await start(traceSizeLimit)
  const call = { from: d.accounts[0]!.address, data, gas }
  const hash = await d.rpc('eth_sendTransaction', [{ ...call, gasPrice: '0x0' }])
  return { d, hash, call }
}

async function error(promise: Promise<unknown>): Promise<unknown> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(RpcError)
  return (err as RpcError).toJSON()
}

/** What the callTracer counts for a frame tree: 250 per frame plus its input and output hex, each log 120 + 69 per topic + its data hex. */
function callTraceSize(frame: CallFrameJson): number {
  const hex = (value: string | undefined) => (value === undefined ? 0 : value.length - 2)
  let size = 250 + hex(frame.input) + hex(frame.output)
  for (const log of frame.logs ?? []) size += 120 + 69 * log.topics.length + hex(log.data)
  for (const call of frame.calls ?? []) size += callTraceSize(call)
  return size
}

describe('struct logger at traceSizeLimit: a frame that ends out of gas', () => {
  it('debug_traceCall and debug_traceTransaction answer at the limit and give the size error one byte below it', async () => {
    const full = await chainWith(LOOP, LOOP_GAS)
    const traced = (await full.d.rpc('debug_traceTransaction', [full.hash])) as { failed: boolean; structLogs: StructLogJson[] }
    expect(traced.failed).toBe(true)
    expect(traced.structLogs.at(-1)).toMatchObject({ error: 'out of gas' })
    const size = traced.structLogs.reduce((sum, log) => sum + estimatedSize(log), 0)
    expect(traced.structLogs.length).toBeGreaterThan(1500)

    const atLimit = await chainWith(LOOP, LOOP_GAS, size)
    expect(await atLimit.d.rpc('debug_traceTransaction', [atLimit.hash])).toEqual(traced)
    const asCall = (await atLimit.d.rpc('debug_traceCall', [atLimit.call, '0x0'])) as { structLogs: StructLogJson[] }
    expect(asCall.structLogs).toEqual(traced.structLogs)

    const below = await chainWith(LOOP, LOOP_GAS, size - 1)
    expect(await error(below.d.rpc('debug_traceTransaction', [below.hash]))).toEqual({ code: -32000, message: STRUCT_ERROR(size - 1) })
    expect(await error(below.d.rpc('debug_traceCall', [below.call, '0x0']))).toEqual({ code: -32000, message: STRUCT_ERROR(size - 1) })
    // The devnet goes on: a trace within the limit is served.
    expect(await below.d.rpc('debug_traceCall', [{ from: below.call.from, to: below.call.from, gas: '0x5208' }, '0x0'])).toMatchObject({ failed: false, structLogs: [] })
  })

  it('stops at the limit however far the run would go: the 6,000,000-gas loop answers the size error at once', async () => {
    const d = await start(100_000)
    const call = { from: d.accounts[0]!.address, data: LOOP, gas: '0x5b8d80' }
    for (const options of [{}, { enableMemory: true }, { disableStack: true }]) {
      expect(await error(d.rpc('debug_traceCall', [call, 'latest', options]))).toEqual({ code: -32000, message: STRUCT_ERROR(100_000) })
    }
  })
})

describe('callTracer at traceSizeLimit', () => {
  it('a deployment with its log: answered at the limit, the size error one byte below, for both trace methods', async () => {
    const data = Token.bytecode + new Interface(Token.abi as never).encodeDeploy(['T', 'T', 1000n]).slice(2)
    const options = { tracer: 'callTracer', tracerConfig: { withLog: true } }
    const full = await chainWith(data, '0x2dc6c0')
    const frame = (await full.d.rpcUntyped('debug_traceTransaction', [full.hash, options])) as CallFrameJson
    expect(frame).toMatchObject({ type: 'CREATE', logs: [{ topics: expect.any(Array) }] })
    const size = callTraceSize(frame)

    const atLimit = await chainWith(data, '0x2dc6c0', size)
    expect(await atLimit.d.rpcUntyped('debug_traceTransaction', [atLimit.hash, options])).toEqual(frame)
    expect(await atLimit.d.rpcUntyped('debug_traceCall', [atLimit.call, '0x0', options])).toMatchObject({ type: 'CREATE', logs: frame.logs })

    const below = await chainWith(data, '0x2dc6c0', size - 1)
    expect(await error(below.d.rpcUntyped('debug_traceTransaction', [below.hash, options]))).toEqual({ code: -32000, message: CALL_ERROR(size - 1) })
    expect(await error(below.d.rpcUntyped('debug_traceCall', [below.call, '0x0', options]))).toEqual({ code: -32000, message: CALL_ERROR(size - 1) })
    // Without withLog the same trace fits.
    expect(await below.d.rpc('debug_traceTransaction', [below.hash, { tracer: 'callTracer' }])).toMatchObject({ type: 'CREATE' })
  })

  it('an out-of-gas frame past the limit gives the size error', async () => {
    const d = await start(200)
    const call = { from: d.accounts[0]!.address, data: LOOP, gas: LOOP_GAS }
    expect(await error(d.rpc('debug_traceCall', [call, 'latest', { tracer: 'callTracer' }]))).toEqual({ code: -32000, message: CALL_ERROR(200) })
  })
})
