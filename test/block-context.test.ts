/**
 * The `blockContext` option: the block environment (NUMBER, TIMESTAMP) of eth_call,
 * eth_estimateGas and debug_traceCall at a block. 'node' (default) is the real
 * node's (reference §6.2): a call at block N sees N and N's timestamp + 1; an
 * estimate runs in the block after the state it reads. 'ethereum' is go-ethereum's,
 * Hardhat's and Anvil's: a call or estimate at N sees N's own number and timestamp.
 * `pending` is the next block in both. A frozen clock makes every timestamp exact;
 * each case runs by function call and over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { decodeFunctionResult, type Abi, type Hex } from 'viem'
import { createDevnet, InvalidOptionError, type Devnet } from '../src/index.ts'
import { BlockGate } from '../fixtures/index.ts'
import { SURFACES, T0, deployGate, head, quantity, surface, type Gate, type Surface } from './blockEnvironment.ts'
import { chainOf } from '../src/devnet/provider.ts'

let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

/** A frozen-clock devnet with BlockGate(opensAt, opensAtBlock) deployed in block 1 (timestamp T0 + 1). */
async function setup(blockContext: 'node' | 'ethereum' | undefined, via: (typeof SURFACES)[number], opensAt = T0 + 1000, opensAtBlock = 1000) {
  devnet = await createDevnet({ clock: 'frozen', genesisTimestamp: T0, console: false, ...(blockContext === undefined ? {} : { blockContext }) })
  const rpc = await surface(devnet, via)
  const gate = await deployGate(rpc, devnet, opensAt, opensAtBlock)
  return { rpc, gate }
}

/** Whether an eth_call of `enter()` at `block` succeeds, else its revert message. */
async function enterCall(rpc: Surface, gate: Gate, block: string): Promise<string> {
  return rpc.rpc('eth_call', [gate.request('enter'), block]).then(
    () => 'ok',
    (err: Error) => err.message,
  )
}

/** Whether an estimate of `enter()` at `block` (none: no block parameter) succeeds, else its revert message. */
async function enterEstimate(gate: Gate, block?: string): Promise<string> {
  return gate.estimate('enter', block).then(
    () => 'ok',
    (err: Error) => err.message,
  )
}

/** NUMBER and TIMESTAMP that debug_traceCall (callTracer) of `env()` at `block` sees. */
async function tracedEnv(rpc: Surface, gate: Gate, block: string): Promise<[number, number]> {
  const trace = (await rpc.rpc('debug_traceCall', [gate.request('env'), block, { tracer: 'callTracer' }])) as { output: Hex }
  const [number, timestamp] = decodeFunctionResult({ abi: BlockGate.abi as Abi, functionName: 'env', data: trace.output }) as [bigint, bigint]
  return [Number(number), Number(timestamp)]
}

describe.each(SURFACES)('over %s', (via) => {
  describe("blockContext 'node' (the default)", () => {
    it('runs eth_call and debug_traceCall at block N with NUMBER N and TIMESTAMP N + 1 s; pending is the next block', async () => {
      const { rpc, gate } = await setup(undefined, via)
      await rpc.rpc('hardhat_mine', ['0x2']) // blocks 2, 3 at T0 + 2, T0 + 3
      await rpc.rpc('evm_setNextBlockTimestamp', [T0 + 50])
      expect(await gate.env('latest')).toEqual([3, T0 + 4])
      expect(await gate.env('0x1')).toEqual([1, T0 + 2])
      expect(await gate.env('pending')).toEqual([4, T0 + 50])
      expect(await tracedEnv(rpc, gate, 'latest')).toEqual([3, T0 + 4])
      expect(await tracedEnv(rpc, gate, '0x2')).toEqual([2, T0 + 3])
      expect(await tracedEnv(rpc, gate, 'pending')).toEqual([4, T0 + 50])
      // Peeking changed nothing: the next block still gets the fixed timestamp.
      await rpc.rpc('evm_mine')
      expect(await head(rpc)).toEqual({ number: 4, timestamp: T0 + 50 })
    })

    it('reads the latest timestamp as T + 1 in views (a deadline equal to the latest block is already past)', async () => {
      const { rpc, gate } = await setup('node', via)
      expect(await rpc.rpc('eth_call', [gate.request('isPast', [BigInt(T0 + 1)]), 'latest'])).toBe(`0x${'1'.padStart(64, '0')}`)
      expect(await rpc.rpc('eth_call', [gate.request('isPast', [BigInt(T0 + 2)]), 'latest'])).toBe(`0x${'0'.padStart(64, '0')}`)
    })

    it('estimates on the latest state in the next block (number + 1), where a call at latest still reverts', async () => {
      const { rpc, gate } = await setup('node', via, T0, 2) // opens at block 2, the next one
      expect(await enterCall(rpc, gate, 'latest')).toBe('execution reverted: BlockGate: block not reached')
      expect(await enterCall(rpc, gate, 'pending')).toBe('ok')
      expect(await enterEstimate(gate)).toBe('ok')
      expect(await enterEstimate(gate, 'latest')).toBe('ok')
      expect(await enterEstimate(gate, 'pending')).toBe('ok')
    })

    it('estimates on an older block in the block that followed it (its number and timestamp)', async () => {
      const { rpc, gate } = await setup('node', via, T0 + 3, 3) // opens with block 3 (T0 + 3)
      await rpc.rpc('hardhat_mine', ['0x3']) // blocks 2..4 at T0 + 2 .. T0 + 4
      expect(await enterEstimate(gate, '0x2')).toBe('ok') // runs as block 3
      expect(await enterEstimate(gate, '0x1')).toBe('execution reverted: BlockGate: not open yet') // runs as block 2
    })
  })

  describe("blockContext 'ethereum'", () => {
    it('runs eth_call and debug_traceCall at block N in N’s own environment; pending is the next block', async () => {
      const { rpc, gate } = await setup('ethereum', via)
      await rpc.rpc('hardhat_mine', ['0x2'])
      await rpc.rpc('evm_setNextBlockTimestamp', [T0 + 50])
      expect(await gate.env('latest')).toEqual([3, T0 + 3])
      expect(await gate.env('0x1')).toEqual([1, T0 + 1])
      expect(await gate.env('pending')).toEqual([4, T0 + 50])
      expect(await tracedEnv(rpc, gate, 'latest')).toEqual([3, T0 + 3])
      expect(await tracedEnv(rpc, gate, '0x2')).toEqual([2, T0 + 2])
      expect(await tracedEnv(rpc, gate, 'pending')).toEqual([4, T0 + 50])
      await rpc.rpc('evm_mine')
      expect(await head(rpc)).toEqual({ number: 4, timestamp: T0 + 50 })
    })

    it('reads the latest timestamp as it is in views', async () => {
      const { rpc, gate } = await setup('ethereum', via)
      expect(await rpc.rpc('eth_call', [gate.request('isPast', [BigInt(T0 + 1)]), 'latest'])).toBe(`0x${'0'.padStart(64, '0')}`)
      expect(await rpc.rpc('eth_call', [gate.request('isPast', [BigInt(T0)]), 'latest'])).toBe(`0x${'1'.padStart(64, '0')}`)
    })

    it('estimates at a given block in that block, and without one (or at pending) in the next block', async () => {
      const { rpc, gate } = await setup('ethereum', via, T0, 2)
      expect(await enterEstimate(gate, 'latest')).toBe('execution reverted: BlockGate: block not reached')
      expect(await enterEstimate(gate, '0x1')).toBe('execution reverted: BlockGate: block not reached')
      expect(await enterEstimate(gate)).toBe('ok')
      expect(await enterEstimate(gate, 'pending')).toBe('ok')
      await rpc.rpc('evm_mine')
      expect(await enterEstimate(gate, 'latest')).toBe('ok')
    })
  })

  describe('at the time boundary', () => {
    // The gate opens at T0 + 10; the latest block is stamped T0 + 9, then T0 + 10.
    it.each([
      ['node', 'ok', 'ok'],
      ['ethereum', 'execution reverted: BlockGate: not open yet', 'ok'],
    ] as const)('blockContext %s: a call at latest one second before / at the opening time', async (context, before, at) => {
      const { rpc, gate } = await setup(context, via, T0 + 10, 0)
      await rpc.rpc('evm_mine', [T0 + 9])
      expect(await enterCall(rpc, gate, 'latest')).toBe(before)
      await rpc.rpc('evm_mine', [T0 + 10])
      expect(await enterCall(rpc, gate, 'latest')).toBe(at)
    })

    it.each(['node', 'ethereum'] as const)('blockContext %s: pending and estimates see the fixed next timestamp, one second short or exact', async (context) => {
      const { rpc, gate } = await setup(context, via, T0 + 10, 0)
      await rpc.rpc('evm_setNextBlockTimestamp', [T0 + 9])
      expect(await enterCall(rpc, gate, 'pending')).toBe('execution reverted: BlockGate: not open yet')
      expect(await enterEstimate(gate)).toBe('execution reverted: BlockGate: not open yet')
      await rpc.rpc('evm_setNextBlockTimestamp', [T0 + 10])
      expect(await enterCall(rpc, gate, 'pending')).toBe('ok')
      expect(await enterEstimate(gate)).toBe('ok')
    })
  })

  describe('at the block boundary', () => {
    it.each(['node', 'ethereum'] as const)('blockContext %s: a call at latest sees the height, pending and estimates the next one', async (context) => {
      const { rpc, gate } = await setup(context, via, T0, 3)
      await rpc.rpc('evm_mine') // height 2: the gate opens with the next block
      expect(await enterCall(rpc, gate, 'latest')).toBe('execution reverted: BlockGate: block not reached')
      expect(await enterCall(rpc, gate, 'pending')).toBe('ok')
      expect(await enterEstimate(gate)).toBe('ok')
      expect(await gate.send('enter')).toBe(1)
      expect((await head(rpc)).number).toBe(3)
    })
  })

  it('refuses a block the chain does not have, in both contexts', async () => {
    for (const context of ['node', 'ethereum'] as const) {
      const { rpc, gate } = await setup(context, via)
      await expect(gate.env(quantity(99))).rejects.toMatchObject({ code: -32000, message: 'header not found' })
      await expect(gate.estimate('enter', quantity(99))).rejects.toMatchObject({ code: -32000, message: 'header not found' })
      await expect(rpc.rpc('debug_traceCall', [gate.request('env'), quantity(99)])).rejects.toMatchObject({ code: -32000, message: 'header not found' })
      await devnet!.close()
    }
  })
})

describe('the blockContext option', () => {
  it("is 'node' by default", async () => {
    devnet = await createDevnet({ console: false })
    expect(chainOf(devnet).blockContext).toBe('node')
  })

  it('refuses another value, naming the option', async () => {
    await expect(createDevnet({ blockContext: 'geth' as never })).rejects.toThrow(new InvalidOptionError('blockContext', 'geth', "'node' or 'ethereum'"))
  })

  it('survives a reset', async () => {
    devnet = await createDevnet({ blockContext: 'ethereum', console: false })
    await devnet.reset()
    expect(chainOf(devnet).blockContext).toBe('ethereum')
  })
})
