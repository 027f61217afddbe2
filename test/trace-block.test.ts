/**
 * debug_traceBlockByNumber and debug_traceBlockByHash (issue 34, item 1; go-ethereum
 * eth/tracers/api.go `TraceBlockByNumber` / `TraceBlockByHash`): `[{ txHash, result }]`
 * for the EVM transactions of a block in order, each as debug_traceTransaction traces
 * it alone (the state before it in its block), with any registered tracer; unknown
 * blocks and bad options refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'

/** Stores 1 + 2 in slot 0, reads it back, returns memory word 0 (test/tracing.test.ts's TINY). */
const TINY = '0x602a600052600160020160005560005460206000f3'
const TINY_ADDRESS = '0x0000000000000000000000000000000000001234'

describe('debug_traceBlockByNumber / debug_traceBlockByHash', () => {
  let devnet: Devnet
  let from: string
  let hashes: string[]
  let number: string
  let blockHash: string
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)

  beforeAll(async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false })
    from = devnet.accounts[0]!.address.toLowerCase()
    await rpc('hardhat_setCode', [TINY_ADDRESS, TINY])
    await rpc('evm_setAutomine', [false])
    hashes = []
    for (let i = 0; i < 3; i++) hashes.push((await rpc('eth_sendTransaction', [{ from, to: TINY_ADDRESS, gas: '0x186a0' }])) as string)
    await rpc('evm_mine', [])
    await rpc('evm_setAutomine', [true])
    const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as { number: string; hash: string; transactions: string[] }
    expect(block.transactions).toEqual(hashes)
    number = block.number
    blockHash = block.hash
  })
  afterAll(async () => {
    await devnet?.close()
  })

  it('answers each transaction’s trace in block order, as debug_traceTransaction gives it, by number and by hash', async () => {
    for (const options of [undefined, { tracer: 'callTracer' }, { tracer: '4byteTracer' }, { disableStack: true }]) {
      const alone = []
      for (const hash of hashes) alone.push({ txHash: hash, result: await rpc('debug_traceTransaction', options === undefined ? [hash] : [hash, options]) })
      expect(await rpc('debug_traceBlockByNumber', options === undefined ? [number] : [number, options])).toEqual(alone)
      expect(await rpc('debug_traceBlockByHash', options === undefined ? [blockHash] : [blockHash, options])).toEqual(alone)
    }
    // The first transaction writes slot 0 fresh (20000), the later ones find it written (800): each sees the ones before.
    const traces = (await rpc('debug_traceBlockByNumber', [number])) as { result: { structLogs: { op: string; gasCost: number }[] } }[]
    expect(traces.map((t) => t.result.structLogs.find((l) => l.op === 'SSTORE')!.gasCost)).toEqual([20000, 800, 800])
  })

  it('answers [] for a block without transactions, and takes tags', async () => {
    await rpc('evm_mine', [])
    expect(await rpc('debug_traceBlockByNumber', ['latest'])).toEqual([])
    expect(await rpc('debug_traceBlockByNumber', ['0x0', { tracer: 'callTracer' }])).toEqual([])
  })

  it('refuses an unknown block (-32000, geth’s text) and bad options (-32602) before replaying', async () => {
    await expect(rpc('debug_traceBlockByNumber', ['0xffff'])).rejects.toMatchObject({ code: -32000, message: 'block not found' })
    await expect(rpc('debug_traceBlockByHash', [`0x${'ab'.repeat(32)}`])).rejects.toMatchObject({ code: -32000, message: `block 0x${'ab'.repeat(32)} not found` })
    await expect(rpc('debug_traceBlockByNumber', [number, { tracer: 'callTracer', tracerConfig: { withLog: 'yes' } }])).rejects.toMatchObject({ code: -32602 })
    await expect(rpc('debug_traceBlockByNumber', [number, { tracer: 'nope' }])).rejects.toMatchObject({ code: -32000, message: 'unkown tracer type: nope' })
  })
})
