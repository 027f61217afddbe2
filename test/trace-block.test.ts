/**
 * debug_traceBlockByNumber and debug_traceBlockByHash (issue 34, item 1; go-ethereum
 * eth/tracers/api.go `TraceBlockByNumber` / `TraceBlockByHash`): `[{ txHash, result }]`
 * for the EVM transactions of a block in order, each as debug_traceTransaction traces
 * it alone (the state before it in its block), with any registered tracer; unknown
 * blocks and bad options refused. debug_traceBlock (go-ethereum `TraceBlock`): the same
 * for a block's RLP (debug_getRawBlock's), on its parent's state.
 */
import { RLP } from '@ethereumjs/rlp'
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

  it('debug_traceBlock: the RLP of debug_getRawBlock traces as debug_traceBlockByNumber; a block the chain has not, on its parent', async () => {
    const raw = (await rpc('debug_getRawBlock', [number])) as string
    for (const options of [undefined, { tracer: 'callTracer' }, { tracer: 'flatCallTracer' }, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]) {
      const params = options === undefined ? [] : [options]
      expect(await rpc('debug_traceBlock', [raw, ...params])).toEqual(await rpc('debug_traceBlockByNumber', [number, ...params]))
    }
    // The same block without its last transaction: not the chain's, traced on the same parent, hashed as geth hashes a block.
    const [header, txs] = RLP.decode(raw) as unknown as [Uint8Array[], Uint8Array[][], unknown[]]
    const shorter = `0x${Buffer.from(RLP.encode([header, txs.slice(0, 2), []])).toString('hex')}`
    const traced = (await rpc('debug_traceBlock', [shorter, { tracer: 'flatCallTracer' }])) as { txHash: string; result: { blockHash: string; transactionPosition: number }[] }[]
    expect(traced.map((t) => t.txHash)).toEqual(hashes.slice(0, 2))
    expect(traced[1]!.result[0]!.blockHash).not.toBe(blockHash)
    expect(traced[1]!.result[0]!.transactionPosition).toBe(1)
    const alone = (await rpc('debug_traceBlock', [shorter])) as { result: { structLogs: { op: string; gasCost: number }[] } }[]
    expect(alone.map((t) => t.result.structLogs.find((l) => l.op === 'SSTORE')!.gasCost)).toEqual([20000, 800])
  })

  it('debug_traceBlock refuses an RLP that is no block (-32602), genesis and an unknown parent (-32000)', async () => {
    const raw = (await rpc('debug_getRawBlock', [number])) as string
    const [header, txs] = RLP.decode(raw) as unknown as [Uint8Array[], Uint8Array[][], unknown[]]
    const encode = (value: unknown) => `0x${Buffer.from(RLP.encode(value as Uint8Array[])).toString('hex')}`
    for (const bad of ['0x', '0xc0', '0x80', encode([header.slice(0, 3), [], []]), encode([header, [new Uint8Array([2, 1])], []]), encode([header, [txs[0]!.slice(0, 5)], []])]) {
      await expect(rpc('debug_traceBlock', [bad]), bad).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('could not decode block') })
    }
    const genesis = [...header]
    genesis[8] = new Uint8Array(0)
    await expect(rpc('debug_traceBlock', [encode([genesis, [], []])])).rejects.toMatchObject({ code: -32000, message: 'genesis is not traceable' })
    const orphan = [...header]
    orphan[0] = new Uint8Array(32).fill(0xab)
    await expect(rpc('debug_traceBlock', [encode([orphan, [], []])])).rejects.toMatchObject({ code: -32000, message: `parent 0x${'ab'.repeat(32)} not found` })
    await expect(rpc('debug_traceBlock', [raw, { tracer: 'nope' }])).rejects.toMatchObject({ code: -32000, message: 'unkown tracer type: nope' })
  })
})
