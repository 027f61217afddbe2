/**
 * No answer carries a JavaScript engine's text (issue 23): hostile inputs to the heavy
 * methods (traces past their limits, tracer options of every wrong type, state
 * documents broken in every layer: gzip, size, depth, JSON, shape) are each answered
 * with an error of our own words. The sweep asserts that no message or data matches
 * the texts V8 and Node put in their errors.
 */
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'

/** Texts of V8 and Node errors, and the stack frames that would follow them. */
const ENGINE_TEXT =
  /Cannot (read|set) propert|string longer than|Maximum call stack|is not a function|is not iterable|undefined|Invalid (array|string) length|Unexpected (token|end of JSON)|is not valid JSON|out of memory|Buffer larger than|\bat \S+ \(|\.ts:\d+/

let devnet: Devnet
let hash: string

beforeAll(async () => {
  devnet = await createDevnet({ accounts: 1, nativeAccounts: 0, console: false, traceSizeLimit: 5_000, traceTimeout: 300, stateLimit: 10_000, jsonDepthLimit: 20 })
  hash = await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, data: '0x5b600056', gas: '0xea60', gasPrice: '0x0' }])
})

afterAll(async () => {
  await devnet?.close()
})

const hex = (text: string | Buffer) => `0x${Buffer.from(text).toString('hex')}`

function hostileCalls(): [string, unknown[]][] {
  const from = devnet.accounts[0]!.address
  const loop = { from, data: '0x5b600056', gas: '0x5b8d80' }
  const traceOptions: unknown[] = [
    {},
    { enableMemory: true },
    { disableStack: true },
    { tracer: 'callTracer' },
    { tracer: 'callTracer', tracerConfig: { withLog: true } },
    { timeout: {} },
    { timeout: [] },
    { timeout: true },
    { timeout: '' },
    { timeout: '-1s' },
    { timeout: '1e3s' },
    { timeout: 'NaNs' },
    { tracer: 5 },
    { tracer: {} },
    { tracer: 'callTracer', tracerConfig: [] },
    { tracer: 'callTracer', tracerConfig: 5 },
    { tracer: 'callTracer', tracerConfig: { onlyTopCall: 'yes' } },
    [],
    'x',
    5,
    { disableStack: 'no' },
  ]
  const calls: [string, unknown[]][] = []
  for (const options of traceOptions) {
    calls.push(['debug_traceCall', [loop, 'latest', options]])
    calls.push(['debug_traceTransaction', [hash, options]])
  }
  calls.push(['debug_traceCall', [{ ...loop, gas: '0xffffffffffffffffffffffff' }, 'latest']])
  calls.push(['debug_traceCall', [{ ...loop, value: '0xffffffffffffffffffffffffffffffff' }, 'latest']])
  calls.push(['debug_traceCall', [null]])
  calls.push(['debug_traceTransaction', [`0x${'00'.repeat(32)}`]])
  calls.push(['debug_traceTransaction', ['0x12']])
  const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20))
  const documents = [
    hex(bomb),
    hex(bomb.subarray(0, 100)),
    hex(gzipSync('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]')),
    hex(gzipSync('undefined')),
    hex('null'),
    hex('[]'),
    hex('1'),
    hex('"s"'),
    hex('{"accounts":null}'),
    hex('{"accounts":[]}'),
    hex('{"format":"dualnet-state","version":1}'),
    hex('{"format":"dualnet-state","version":1,"chainId":1,"head":{"number":0,"timestamp":1,"hash":"0x00"},"accounts":{"0x00":{}}}'),
    hex('{"accounts":{"0x00000000000000000000000000000000000000aa":{"balance":{},"storage":[]}}}'),
    hex('{"accounts":{"0x00000000000000000000000000000000000000aa":{"storage":{"0x1":{}}}}}'),
    hex('\uFEFF{}'),
    '0x1f8b',
    '0x1f8b08',
    'not hex',
  ]
  for (const doc of documents) calls.push(['anvil_loadState', [doc]])
  for (const doc of [
    null,
    [],
    5,
    {},
    { accounts: { x: null } },
    { accounts: { '0x00000000000000000000000000000000000000aa': { balance: [] } } },
    { format: 'dualnet-state', version: 1, head: null },
  ]) {
    calls.push(['anvil_loadState', [doc]])
  }
  return calls
}

describe('no engine texts in answers', () => {
  it('every hostile call is answered in our own words', async () => {
    const leaks: string[] = []
    let errors = 0
    for (const [method, params] of hostileCalls()) {
      const outcome = await devnet.rpcUntyped(method, params).then(
        (result) => ({ result }),
        (err: unknown) => ({ err }),
      )
      if ('result' in outcome) continue
      expect(outcome.err).toBeInstanceOf(RpcError)
      errors++
      const text = JSON.stringify((outcome.err as RpcError).toJSON())
      if (ENGINE_TEXT.test(text)) leaks.push(`${method} ${JSON.stringify(params).slice(0, 120)} -> ${text}`)
    }
    expect(leaks).toEqual([])
    expect(errors).toBeGreaterThan(60)
    // Still serving.
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x1')
  }, 120_000)
})
