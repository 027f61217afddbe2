/**
 * The tracer registry (issue 33, deliverable 3; evm/tracing/registry.ts): the
 * tracers by name, the struct logger as the default, each tracer's config parsed and
 * checked by its own declaration (-32602 with go-ethereum's decoding texts), and a name
 * the registry does not hold refused with the real node's text (reference §6.2), on
 * debug_traceTransaction and debug_traceCall alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { defaultTracer, findTracer, tracers } from '../src/evm/tracing/registry.ts'
import { callTracer } from '../src/evm/tracing/callTracer.ts'
import { structLogger } from '../src/evm/tracing/structLogger.ts'
import { tracerFromOptions } from '../src/rpc/traceConfig.ts'
import { CallTracer } from '../src/evm/tracing/callTracer.ts'
import { StructLogger } from '../src/evm/tracing/structLogger.ts'

/** Stores 3 in slot 0, reads it back, returns memory word 0 (test/tracing.test.ts's TINY). */
const TINY = '0x602a600052600160020160005560005460206000f3'
const TINY_ADDRESS = '0x0000000000000000000000000000000000001234'

interface StructLog {
  op: string
  stack?: string[]
  memory?: string[]
  storage?: Record<string, string>
}

describe('the tracer registry', () => {
  it('holds the tracers by their wire name, and the struct logger as the default only', () => {
    expect(Object.keys(tracers)).toEqual(['callTracer', 'flatCallTracer', '4byteTracer', 'noopTracer', 'muxTracer', 'prestateTracer'])
    expect(findTracer('callTracer')).toBe(callTracer)
    expect(defaultTracer).toBe(structLogger)
    // The struct logger has no wire name (go-ethereum's neither); inherited properties are no tracers.
    for (const name of ['structLogger', 'toString', '__proto__', 'constructor', 5, null]) expect(findTracer(name)).toBeUndefined()
  })

  it('makes a fresh tracer of the named kind per call, the struct logger without a name', () => {
    expect(tracerFromOptions(undefined, 1)).toBeInstanceOf(StructLogger)
    expect(tracerFromOptions(null, 1)).toBeInstanceOf(StructLogger)
    expect(tracerFromOptions({ tracer: '' }, 1)).toBeInstanceOf(StructLogger)
    expect(tracerFromOptions({ tracer: null, disableStack: true }, 1)).toBeInstanceOf(StructLogger)
    const a = tracerFromOptions({ tracer: 'callTracer' }, 1)
    expect(a).toBeInstanceOf(CallTracer)
    expect(tracerFromOptions({ tracer: 'callTracer' }, 1)).not.toBe(a)
  })
})

describe('trace options through the registry', () => {
  let devnet: Devnet
  let from: string
  let hash: string
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)

  beforeAll(async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false })
    from = devnet.accounts[0]!.address.toLowerCase()
    await rpc('hardhat_setCode', [TINY_ADDRESS, TINY])
    hash = (await rpc('eth_sendTransaction', [{ from, to: TINY_ADDRESS, gas: '0x186a0' }])) as string
  })
  afterAll(async () => {
    await devnet.close()
  })

  /** Both trace methods with `options`, options at argument 1 and 2. */
  const both = (options: unknown) => [
    { call: () => rpc('debug_traceTransaction', [hash, options]), index: 1 },
    { call: () => rpc('debug_traceCall', [{ from, to: TINY_ADDRESS }, 'latest', options]), index: 2 },
  ]

  it('refuses a name the registry does not hold with the real node’s text, typo included', async () => {
    for (const [tracer, shown] of [
      ['nosuchTracer', 'nosuchTracer'],
      ['structLogger', 'structLogger'],
      ['toString', 'toString'],
      [5, '5'],
      [{ a: 1 }, '{"a":1}'],
    ] as const) {
      for (const { call } of both({ tracer })) {
        await expect(call()).rejects.toMatchObject({ code: -32000, message: `unkown tracer type: ${shown}` })
      }
    }
  })

  it('refuses a bad tracerConfig with -32602 and go-ethereum’s decoding text, from the tracer’s own parser', async () => {
    for (const [tracerConfig, text] of [
      [5, 'json: cannot unmarshal non-object into Go value of type native.callTracerConfig'],
      [[true], 'json: cannot unmarshal non-object into Go value of type native.callTracerConfig'],
      [{ onlyTopCall: 'yes' }, 'json: cannot unmarshal string into Go struct field callTracerConfig.onlyTopCall of type bool'],
      [{ withLog: 1 }, 'json: cannot unmarshal number into Go struct field callTracerConfig.withLog of type bool'],
    ] as const) {
      for (const { call, index } of both({ tracer: 'callTracer', tracerConfig })) {
        await expect(call()).rejects.toMatchObject({ code: -32602, message: `invalid argument ${index}: ${text}` })
      }
    }
    // Absent, null or empty: the defaults; without a tracer, tracerConfig is not read.
    for (const options of [{ tracer: 'callTracer' }, { tracer: 'callTracer', tracerConfig: null }, { tracer: 'callTracer', tracerConfig: {} }]) {
      for (const { call } of both(options)) expect(((await call()) as { to: string }).to).toBe(TINY_ADDRESS)
    }
    for (const { call } of both({ tracerConfig: 5 })) expect(((await call()) as { structLogs: unknown[] }).structLogs).toHaveLength(13)
  })

  it('honours the struct logger’s flags, its config, and refuses a flag that is not a boolean', async () => {
    for (const { call } of both({})) {
      const logs = ((await call()) as { structLogs: StructLog[] }).structLogs
      expect(logs.every((l) => l.stack !== undefined && l.memory === undefined)).toBe(true)
      expect(logs.find((l) => l.op === 'SLOAD')!.storage).toBeDefined()
    }
    for (const { call } of both({ disableStack: true, disableStorage: true, enableMemory: true })) {
      const logs = ((await call()) as { structLogs: StructLog[] }).structLogs
      expect(logs.some((l) => l.stack !== undefined || l.storage !== undefined)).toBe(false)
      expect(logs.find((l) => l.op === 'RETURN')!.memory).toEqual([`${'0'.repeat(62)}2a`])
    }
    for (const [options, text] of [
      [{ disableStack: 'yes' }, 'json: cannot unmarshal string into Go struct field TraceConfig.disableStack of type bool'],
      [{ enableMemory: 1 }, 'json: cannot unmarshal number into Go struct field TraceConfig.enableMemory of type bool'],
      [{ disableStorage: [] }, 'json: cannot unmarshal array into Go struct field TraceConfig.disableStorage of type bool'],
      ['callTracer', 'json: cannot unmarshal non-object into Go value of type tracers.TraceConfig'],
    ] as const) {
      for (const { call, index } of both(options)) {
        await expect(call()).rejects.toMatchObject({ code: -32602, message: `invalid argument ${index}: ${text}` })
      }
    }
  })
})
