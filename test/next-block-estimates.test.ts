/**
 * Estimates in the next block: eth_estimateGas (and eth_sendTransaction's own gas
 * estimate) runs in the block the transaction will land in, its number height + 1 and
 * the timestamp that evm_setNextBlockTimestamp, evm_increaseTime, a block-timestamp
 * interval, a step clock or interval mining will give it, in both block contexts,
 * by function call (with the devnet.* time helpers), over HTTP and over a WebSocket
 * (with the JSON-RPC time controls). Peeking at that timestamp changes nothing: the
 * mined block gets it. The suites of issue 19 set the next block's time without
 * mining and then send through hardhat-ethers, which estimates every transaction.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { BrowserProvider, Contract, JsonRpcProvider, type InterfaceAbi } from 'ethers'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Abi } from 'viem'
import { createDevnet, type Devnet, type DevnetOptions } from '../src/index.ts'
import { BlockGate } from '../fixtures/index.ts'
import { T0, deployGate, head, surface, type Surface } from './blockEnvironment.ts'

let devnet: Devnet | undefined
afterEach(async () => {
  await devnet?.close()
  devnet = undefined
})

const CONTEXTS = ['node', 'ethereum'] as const
const PATHS = ['function call', 'HTTP', 'WebSocket'] as const

/** A devnet (frozen clock unless `options` say otherwise) and a surface. */
async function start(path: (typeof PATHS)[number], options: DevnetOptions): Promise<Surface> {
  devnet = await createDevnet({ clock: 'frozen', genesisTimestamp: T0, console: false, ...options })
  return surface(devnet, path)
}

/** The time controls of a path: the devnet.* helpers by function call, the JSON-RPC methods on sockets. */
function timeControls(path: (typeof PATHS)[number], rpc: Surface) {
  const d = devnet!
  return path === 'function call'
    ? { setNext: (t: number) => d.setNextBlockTimestamp(t), increase: (s: number) => d.increaseTime(s).then(() => {}) }
    : { setNext: (t: number) => rpc.rpc('evm_setNextBlockTimestamp', [t]).then(() => {}), increase: (s: number) => rpc.rpc('evm_increaseTime', [s]).then(() => {}) }
}

describe.each(CONTEXTS)('blockContext %s', (blockContext) => {
  describe.each(PATHS)('by %s', (path) => {
    it('estimates at the timestamp evm_setNextBlockTimestamp fixed, without using it up; the send lands in that block', async () => {
      const rpc = await start(path, { blockContext })
      const gate = await deployGate(rpc, devnet!, T0 + 100, 0)
      await timeControls(path, rpc).setNext(T0 + 100) // time.increaseTo(t, false): no block mined
      const gas = await gate.estimate('enter')
      expect(gas).toBeGreaterThan(21_000n)
      expect(await gate.send('enter', gas)).toBe(1)
      expect(await head(rpc)).toEqual({ number: 2, timestamp: T0 + 100 })
    })

    it('estimates at the time evm_increaseTime moved to', async () => {
      const rpc = await start(path, { blockContext })
      const gate = await deployGate(rpc, devnet!, T0 + 100, 0)
      await timeControls(path, rpc).increase(100) // the clock reads T0 + 100; the next block gets it
      expect(await gate.env('pending')).toEqual([2, T0 + 100])
      // eth_sendTransaction without gas: the node's own estimate, in the same block environment.
      expect(await gate.send('enter')).toBe(1)
      expect(await head(rpc)).toEqual({ number: 2, timestamp: T0 + 100 })
    })

    it('estimates a step a block-timestamp interval ahead (anvil_setBlockTimestampInterval)', async () => {
      const rpc = await start(path, { blockContext })
      const gate = await deployGate(rpc, devnet!, T0 + 61, 0) // block 1 is T0 + 1
      await rpc.rpc('anvil_setBlockTimestampInterval', [60])
      expect(await gate.env('pending')).toEqual([2, T0 + 61])
      expect(await gate.send('enter', await gate.estimate('enter'))).toBe(1)
      expect(await head(rpc)).toEqual({ number: 2, timestamp: T0 + 61 })
    })

    it('estimates a checkpoint in the next block: a new slot, as the mined transaction writes it (ERC20Votes)', async () => {
      const rpc = await start(path, { blockContext })
      const gate = await deployGate(rpc, devnet!, T0, 0)
      expect(await gate.send('checkpoint')).toBe(1) // block 2 writes checkpoints[2]
      const next = await gate.estimate('checkpoint')
      if (blockContext === 'ethereum') {
        // At block 2 itself (geth's rule for a block given) the slot exists: 5,000 gas for the write instead of 20,000.
        const inBlock2 = await gate.estimate('checkpoint', 'latest')
        expect(next - inBlock2).toBe(15_000n)
        expect(await gate.send('checkpoint', inBlock2)).toBe(0) // too little in a block of its own
      }
      expect(await gate.send('checkpoint', next)).toBe(1)
    })
  })

  it('estimates one step ahead with a step clock, and interval mining stamps the block so', async () => {
    devnet = await createDevnet({ clock: { step: 7 }, genesisTimestamp: T0, blockTime: 1, console: false, blockContext })
    const rpc = await surface(devnet, 'HTTP')
    // Whatever interval blocks were mined meanwhile, the next one is its parent + 7.
    const [number, timestamp] = await (await deployGate(rpc, devnet, T0, 0)).env('pending')
    const parent = (await rpc.rpc('eth_getBlockByNumber', [`0x${(number - 1).toString(16)}`, false])) as { timestamp: string }
    expect(timestamp).toBe(Number(parent.timestamp) + 7)
    while ((await head(rpc)).number < number) await new Promise((resolve) => setTimeout(resolve, 100))
    const block = (await rpc.rpc('eth_getBlockByNumber', [`0x${number.toString(16)}`, false])) as { timestamp: string }
    expect(Number(block.timestamp)).toBe(timestamp)
  }, 120_000)
})

describe.each(PATHS.slice(0, 2))('with transactions waiting for the next block (automine off), by %s', (path) => {
  it.each(CONTEXTS)('blockContext %s: estimates, calls and traces at pending run after them, as in the mined block', async (blockContext) => {
    const rpc = await start(path, { blockContext })
    const gate = await deployGate(rpc, devnet!, T0, 0)
    const alone = await gate.estimate('checkpoint') // a new slot: checkpoints[2]
    await rpc.rpc('evm_setAutomine', [false])
    const other = devnet!.accounts[1]!.address
    await rpc.rpc('eth_sendTransaction', [{ ...gate.request('checkpoint'), from: other, gas: '0x30000' }])
    // The waiting transaction writes checkpoints[2] first: 5,000 gas for the write instead of 20,000.
    const after = await gate.estimate('checkpoint')
    expect(alone - after).toBe(15_000n)
    const slot2 = gate.request('checkpoints', [2n])
    expect(BigInt((await rpc.rpc('eth_call', [slot2, 'pending'])) as string)).toBe(1n)
    expect(BigInt((await rpc.rpc('eth_call', [slot2, 'latest'])) as string)).toBe(0n)
    const trace = (await rpc.rpc('debug_traceCall', [slot2, 'pending', { tracer: 'callTracer' }])) as { output: string }
    expect(BigInt(trace.output)).toBe(1n)
    // Nothing of the simulations stayed: the pool and the state are as they were.
    expect(await rpc.rpc('txpool_status')).toEqual({ pending: '0x1', queued: '0x0' })
    await rpc.rpc('evm_mine')
    expect(BigInt((await rpc.rpc('eth_call', [slot2, 'latest'])) as string)).toBe(1n)
  })

  it('eth_sendTransaction estimates a call to a contract whose deployment waits in the same block', async () => {
    const rpc = await start(path, {})
    await rpc.rpc('evm_setAutomine', [false])
    const from = devnet!.accounts[0]!.address
    const nonce = Number(await rpc.rpc('eth_getTransactionCount', [from, 'latest']))
    const deployment = (await rpc.rpc('eth_sendTransaction', [
      { from, data: encodeDeployData({ abi: BlockGate.abi as Abi, bytecode: BlockGate.bytecode, args: [0n, 0n] }), gas: '0x100000' },
    ])) as string
    const gateAddress = getContractAddress({ from, nonce: BigInt(nonce) })
    const enter = { from, to: gateAddress, data: encodeFunctionData({ abi: BlockGate.abi as Abi, functionName: 'enter' }) }
    const gas = BigInt((await rpc.rpc('eth_estimateGas', [enter])) as string)
    expect(gas).toBeGreaterThan(40_000n) // the gate's code ran (a call to an empty account costs 21,064)
    const sent = (await rpc.rpc('eth_sendTransaction', [enter])) as string // gas from the node's own estimate
    await rpc.rpc('evm_mine')
    for (const hash of [deployment, sent]) expect(((await rpc.rpc('eth_getTransactionReceipt', [hash])) as { status: string }).status).toBe('0x1')
  })
})

describe('ethers over HTTP and in process, as hardhat-ethers sends (every transaction estimated first)', () => {
  it.each(['HTTP', 'in process'] as const)('%s: a call gated on the next timestamp goes through right after evm_setNextBlockTimestamp', async (how) => {
    devnet = await createDevnet({ clock: 'frozen', genesisTimestamp: T0, console: false })
    const rpc = await surface(devnet, 'function call')
    const gate = await deployGate(rpc, devnet, T0 + 3600, 0)
    const provider = how === 'HTTP' ? new JsonRpcProvider((await devnet.listen({ rest: false })).rpcUrl, undefined, { cacheTimeout: -1 }) : new BrowserProvider(devnet)
    const signer = await provider.getSigner(0)
    const contract = new Contract(gate.address, BlockGate.abi as InterfaceAbi, signer)
    await provider.send('evm_setNextBlockTimestamp', [T0 + 3600])
    const receipt = await (await contract.getFunction('enter')()).wait()
    expect(receipt?.status).toBe(1)
    expect((await provider.getBlock('latest'))?.timestamp).toBe(T0 + 3600)
    provider.destroy()
  })
})
