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
  it('prestateTracer gives the touched accounts before the transaction; diffMode the changed ones before and after', async () => {
    const TINY = '0x602a600052600160020160005560005460206000f3'
    const tiny = '0x0000000000000000000000000000000000001234'
    await rpc('hardhat_setCode', [tiny, TINY])
    const nonce = Number(await rpc('eth_getTransactionCount', [from, 'latest']))
    const balance = (await rpc('eth_getBalance', [from, 'latest'])) as string
    const tx = await rpc('eth_sendTransaction', [{ from, to: tiny, gas: '0x186a0' }])
    const zero = `0x${'0'.repeat(64)}`
    const three = `0x${'3'.padStart(64, '0')}`
    // The coinbase (0x0) is looked up as geth does, and the chain's fee recipient, governance 0x…07; the devnet's gas price is 0, so no balance moves.
    expect(await rpc('debug_traceTransaction', [tx, { tracer: 'prestateTracer' }])).toEqual({
      [from]: { balance, nonce },
      [`0x${'0'.repeat(40)}`]: { balance: '0x0' },
      [`0x${'7'.padStart(40, '0')}`]: { balance: '0x0' },
      [tiny]: { balance: '0x0', code: TINY, storage: { [zero]: zero } },
    })
    expect(await rpc('debug_traceTransaction', [tx, { tracer: 'prestateTracer', tracerConfig: { disableCode: true, disableStorage: true } }])).toMatchObject({ [tiny]: { balance: '0x0' } })
    expect(await rpc('debug_traceTransaction', [tx, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])).toEqual({
      pre: { [from]: { balance, nonce }, [tiny]: { balance: '0x0', code: TINY, storage: { [zero]: zero } } },
      post: { [from]: { nonce: nonce + 1 }, [tiny]: { storage: { [zero]: three } } },
    })
    // A value transfer (the sender's 1000 wei, passed on to the callee): the balances move, pre and post.
    const run = (await rpc('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])) as {
      pre: Record<string, { balance: string }>
      post: Record<string, { balance?: string }>
    }
    expect(BigInt(run.pre[from]!.balance) - 1000n).toBe(BigInt(run.post[from]!.balance!))
    // debug_traceCall keeps no state after the call: diffMode is refused, the plain mode answers.
    await expect(rpc('debug_traceCall', [{ from, to: tiny }, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])).rejects.toMatchObject({ code: -32000 })
    expect(await rpc('debug_traceCall', [{ from, to: tiny }, 'latest', { tracer: 'prestateTracer' }])).toMatchObject({ [tiny]: { storage: { [zero]: three } } })
    await expect(rpc('debug_traceTransaction', [tx, { tracer: 'prestateTracer', tracerConfig: { diffMode: 'yes' } }])).rejects.toMatchObject({ code: -32602 })
  })

  it('prestateTracer of a deploy: the new contract not in pre, in diffMode’s post with its code and nonce; the fee in governance’s balance', async () => {
    const gasPrice = '0x3b9aca00'
    const deployHash = await rpc('eth_sendTransaction', [{ from, data: TraceCallee.bytecode, gasPrice }])
    const { contractAddress, gasUsed } = (await rpc('eth_getTransactionReceipt', [deployHash])) as { contractAddress: string; gasUsed: string }
    const code = await rpc('eth_getCode', [contractAddress, 'latest'])
    const governance = `0x${'7'.padStart(40, '0')}`
    expect(await rpc('debug_traceTransaction', [deployHash, { tracer: 'prestateTracer' }])).not.toHaveProperty(contractAddress)
    const { pre, post } = (await rpc('debug_traceTransaction', [deployHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])) as {
      pre: Record<string, { balance: string }>
      post: Record<string, { balance?: string; code?: string; nonce?: number }>
    }
    expect(pre).not.toHaveProperty(contractAddress)
    expect(post[contractAddress]).toEqual({ code, nonce: 1 })
    // The chain pays the fee to governance (reference §6.4), which the tracer looks up beside the coinbase.
    expect(BigInt(post[governance]!.balance!) - BigInt(pre[governance]!.balance)).toBe(BigInt(gasUsed) * BigInt(gasPrice))
  })
})
