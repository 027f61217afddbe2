/**
 * The standard tracers beside the callTracer (issue 34, item 1): go-ethereum's
 * 4byteTracer (native/4byte.go), noopTracer (native/noop.go) and muxTracer
 * (native/mux.go), on the TraceCaller fixture (a call with value to the callee's
 * `ping(uint256)`, a reverted STATICCALL to its `fail()`), by debug_traceTransaction
 * and debug_traceCall.
 */
import { Interface } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TraceCallee, TraceCaller } from '../fixtures/index.ts'
import { createDevnet, type Devnet } from '../src/index.ts'

describe('4byteTracer, noopTracer, muxTracer', () => {
  let devnet: Devnet
  let from: string
  let caller: string
  let hash: string
  const callerAbi = new Interface(TraceCaller.abi as never)
  const calleeAbi = new Interface(TraceCallee.abi as never)
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)

  beforeAll(async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false })
    from = devnet.accounts[0]!.address.toLowerCase()
    const deploy = async (data: string) => {
      const tx = await rpc('eth_sendTransaction', [{ from, data }])
      return ((await rpc('eth_getTransactionReceipt', [tx])) as { contractAddress: string }).contractAddress
    }
    const callee = await deploy(TraceCallee.bytecode)
    caller = await deploy(TraceCaller.bytecode + callerAbi.encodeDeploy([callee]).slice(2))
    hash = (await rpc('eth_sendTransaction', [{ from, to: caller, data: callerAbi.encodeFunctionData('run'), value: '0x3e8', gas: '0x30d40' }])) as string
  })
  afterAll(async () => {
    await devnet?.close()
  })

  /** `"0x<selector>-<size>"` of an ABI function, as the 4byteTracer keys it. */
  const key = (abi: Interface, name: string, args: unknown[] = []) => {
    const data = abi.encodeFunctionData(name, args)
    return `${data.slice(0, 10)}-${(data.length - 10) / 2}`
  }

  it('4byteTracer counts the transaction’s call and each sub-call by selector and data size, not creations', async () => {
    const expected = { [key(callerAbi, 'run')]: 1, [key(calleeAbi, 'ping', [21])]: 1, [key(calleeAbi, 'fail')]: 1 }
    expect(await rpc('debug_traceTransaction', [hash, { tracer: '4byteTracer' }])).toEqual(expected)
    expect(await rpc('debug_traceCall', [{ from, to: caller, data: callerAbi.encodeFunctionData('run'), value: '0x3e8', gas: '0x30d40' }, 'latest', { tracer: '4byteTracer' }])).toEqual(expected)
    // A plain transfer (no selector) and a creation count nothing.
    const transfer = await rpc('eth_sendTransaction', [{ from, to: caller.replace(/.$/, '0'), value: '0x1' }])
    expect(await rpc('debug_traceTransaction', [transfer, { tracer: '4byteTracer' }])).toEqual({})
  })

  it('noopTracer answers {} whatever the config', async () => {
    expect(await rpc('debug_traceTransaction', [hash, { tracer: 'noopTracer' }])).toEqual({})
    expect(await rpc('debug_traceTransaction', [hash, { tracer: 'noopTracer', tracerConfig: { anything: 1 } }])).toEqual({})
  })

  it('muxTracer runs each named tracer with its config and answers their results by name', async () => {
    const alone = await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])
    const fourByte = await rpc('debug_traceTransaction', [hash, { tracer: '4byteTracer' }])
    const mux = await rpc('debug_traceTransaction', [hash, { tracer: 'muxTracer', tracerConfig: { callTracer: { withLog: true }, '4byteTracer': null, noopTracer: {} } }])
    expect(mux).toEqual({ callTracer: alone, '4byteTracer': fourByte, noopTracer: {} })
    expect(await rpc('debug_traceTransaction', [hash, { tracer: 'muxTracer' }])).toEqual({})
  })

  it('muxTracer refuses a bad sub-config and a non-object config with -32602, an unknown name as the options’ own (-32000)', async () => {
    const refuse = async (tracerConfig: unknown, code = -32602) => {
      const error = (await rpc('debug_traceTransaction', [hash, { tracer: 'muxTracer', tracerConfig }]).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: number; message?: string } | undefined
      expect(error?.code).toBe(code)
      return error!.message!
    }
    expect(await refuse({ nosuchTracer: {} }, -32000)).toBe('unkown tracer type: nosuchTracer')
    expect(await refuse({ callTracer: { withLog: 1 } })).toMatch(/withLog/)
    expect(await refuse([1])).toMatch(/non-object/)
  })
})
