/**
 * debug_traceTransaction and debug_traceCall (issue 9, item 3): go-ethereum's struct
 * logger on a tiny contract against a hand-checked list (Istanbul gas), the replay
 * on the state before the transaction (earlier blocks and earlier transactions of
 * its block), the callTracer's frames for the TraceCaller fixture (a call with
 * value, a reverted STATICCALL caught by try/catch, logs), nothing changed by
 * tracing, native transactions and bad options refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Interface, JsonRpcProvider } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { TraceCallee, TraceCaller } from '../fixtures/index.ts'
import { toHex } from '../src/util/hex.ts'
import { chainOf } from '../src/devnet/provider.ts'

/**
 * PUSH1 0x2a PUSH1 0 MSTORE PUSH1 1 PUSH1 2 ADD PUSH1 0 SSTORE PUSH1 0 SLOAD
 * PUSH1 0x20 PUSH1 0 RETURN: stores 3 in slot 0, reads it back, returns memory word 0.
 */
const TINY = '0x602a600052600160020160005560005460206000f3'
const TINY_ADDRESS = '0x0000000000000000000000000000000000001234'
const W0 = '0'.repeat(64)
const W3 = `${'0'.repeat(63)}3`
const W2A = `${'0'.repeat(62)}2a`

/** The struct logs of TINY's first run with 79,000 gas after the intrinsic charge, as Istanbul prices it; `sstore` is the SSTORE's cost. */
function tinyLogs(sstore: number, withMemory: boolean) {
  const gasAt = [79000]
  const costs = [3, 3, 6, 3, 3, 3, 3, sstore, 3, 800, 3, 3, 0]
  for (const c of costs.slice(0, -1)) gasAt.push(gasAt[gasAt.length - 1]! - c)
  const rows: [number, string, string[]][] = [
    [0, 'PUSH1', []],
    [2, 'PUSH1', ['0x2a']],
    [4, 'MSTORE', ['0x2a', '0x0']],
    [5, 'PUSH1', []],
    [7, 'PUSH1', ['0x1']],
    [9, 'ADD', ['0x1', '0x2']],
    [10, 'PUSH1', ['0x3']],
    [12, 'SSTORE', ['0x3', '0x0']],
    [13, 'PUSH1', []],
    [15, 'SLOAD', ['0x0']],
    [16, 'PUSH1', ['0x3']],
    [18, 'PUSH1', ['0x3', '0x20']],
    [20, 'RETURN', ['0x3', '0x20', '0x0']],
  ]
  return rows.map(([pc, op, stack], i) => ({
    pc,
    op,
    gas: gasAt[i],
    gasCost: costs[i],
    depth: 1,
    stack,
    ...(withMemory && i >= 3 && { memory: [W2A] }),
    ...((op === 'SSTORE' || op === 'SLOAD') && { storage: { [W0]: W3 } }),
  }))
}

describe('debug_traceTransaction / debug_traceCall', () => {
  let devnet: Devnet
  let from: string
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)

  beforeEach(async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false })
    from = devnet.accounts[0]!.address.toLowerCase()
    await rpc('hardhat_setCode', [TINY_ADDRESS, TINY])
  })
  afterEach(async () => {
    await devnet.close()
  })

  async function sendTiny(): Promise<string> {
    return (await rpc('eth_sendTransaction', [{ from, to: TINY_ADDRESS, gas: '0x186a0' }])) as string
  }

  it('struct logs of a tiny contract equal the hand-checked list, replayed on the state before the transaction', async () => {
    const first = await sendTiny()
    const second = await sendTiny()
    const receipt = (await rpc('eth_getTransactionReceipt', [first])) as { gasUsed: string }
    expect(receipt.gasUsed).toBe('0xa369') // 21,000 + 20,833
    expect(await rpc('debug_traceTransaction', [first, { enableMemory: true }])).toEqual({
      gas: 41833,
      failed: false,
      returnValue: W2A,
      structLogs: tinyLogs(20000, true),
    })
    // The second run finds slot 0 at 3 already: SSTORE 3 -> 3 costs 800 (EIP-2200), no refund.
    const again = (await rpc('debug_traceTransaction', [second, { disableStack: true, disableStorage: true }])) as { gas: number; structLogs: Record<string, unknown>[] }
    expect(again.gas).toBe(21000 + 20833 - 19200)
    expect(again.structLogs.map((l) => l.gasCost)).toEqual(tinyLogs(800, false).map((l) => l.gasCost))
    expect(again.structLogs.every((l) => !('stack' in l) && !('storage' in l) && !('memory' in l))).toBe(true)
  })

  it('replays a transaction after the earlier transactions of its own block', async () => {
    await rpc('evm_setAutomine', [false])
    const first = await sendTiny()
    const second = await sendTiny()
    await rpc('evm_mine', [])
    const [a, b] = (await Promise.all([first, second].map((h) => rpc('eth_getTransactionReceipt', [h])))) as { blockNumber: string }[]
    expect(a!.blockNumber).toBe(b!.blockNumber)
    const sstore = async (hash: string) => ((await rpc('debug_traceTransaction', [hash])) as { structLogs: { op: string; gasCost: number }[] }).structLogs.find((l) => l.op === 'SSTORE')!.gasCost
    expect(await sstore(first)).toBe(20000)
    expect(await sstore(second)).toBe(800)
  })

  it('changes nothing: blocks, state, pool and snapshots read the same after tracing', async () => {
    const hash = await sendTiny()
    await rpc('evm_setAutomine', [false])
    const pending = await sendTiny()
    const read = async () => ({
      block: await rpc('eth_blockNumber', []),
      latest: await rpc('eth_getBlockByNumber', ['latest', false]),
      slot: await rpc('eth_getStorageAt', [TINY_ADDRESS, '0x0', 'latest']),
      balance: await rpc('eth_getBalance', [from, 'latest']),
      governance: await rpc('eth_getBalance', ['0x0000000000000000000000000000000000000007', 'latest']),
      nonce: await rpc('eth_getTransactionCount', [from, 'latest']),
      pendingNonce: await rpc('eth_getTransactionCount', [from, 'pending']),
      pool: await rpc('eth_getTransactionByHash', [pending]),
    })
    const before = await read()
    const snapshot = await rpc('evm_snapshot', [])
    await rpc('debug_traceTransaction', [hash, { enableMemory: true, enableReturnData: true }])
    await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }])
    await rpc('debug_traceCall', [{ from, to: TINY_ADDRESS }, 'latest'])
    expect(await read()).toEqual(before)
    expect(await rpc('evm_revert', [snapshot])).toBe(true)
    expect(await read()).toEqual(before)
  })

  const GAS_TOKEN = '0x0000000000000000000000000000000000000002'
  const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
  const word = (address: string): string => `0x${address.slice(2).padStart(64, '0')}`

  it('callTracer gives the fixture call frames: a call with value, a reverted STATICCALL caught by try/catch, logs', async () => {
    const callerAbi = new Interface(TraceCaller.abi as never)
    const calleeAbi = new Interface(TraceCallee.abi as never)
    const deploy = async (data: string) => {
      const hash = await rpc('eth_sendTransaction', [{ from, data }])
      return ((await rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string }).contractAddress
    }
    const callee = await deploy(TraceCallee.bytecode)
    const caller = await deploy(TraceCaller.bytecode + callerAbi.encodeDeploy([callee]).slice(2))
    const input = callerAbi.encodeFunctionData('run')
    const hash = (await rpc('eth_sendTransaction', [{ from, to: caller, data: input, value: '0x3e8', gas: '0x30d40' }])) as string
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { gasUsed: string; status: string }
    expect(receipt.status).toBe('0x1')
    const result = `0x${(42).toString(16).padStart(64, '0')}`
    const failData = new Interface(['function Error(string)']).encodeFunctionData('Error', ['callee failed'])
    const trace = (await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as Record<string, unknown> & { calls: Record<string, string>[] }
    const [ping, fail] = trace.calls
    for (const frame of [ping!, fail!]) {
      expect(frame.gas).toMatch(/^0x[0-9a-f]+$/)
      expect(BigInt(frame.gasUsed!)).toBeLessThanOrEqual(BigInt(frame.gas!))
    }
    expect(trace).toEqual({
      type: 'CALL',
      from,
      gas: '0x30d40',
      gasUsed: receipt.gasUsed,
      to: caller,
      input,
      output: result,
      calls: [
        {
          type: 'CALL',
          from: caller,
          gas: ping!.gas,
          gasUsed: ping!.gasUsed,
          to: callee,
          input: calleeAbi.encodeFunctionData('ping', [21]),
          output: result,
          logs: [
            // The chain's gas-token Transfer of the call's value, first in the callee's frame (reference §6.4).
            { address: GAS_TOKEN, topics: [TRANSFER_TOPIC, word(caller), word(callee)], data: `0x${(1000).toString(16).padStart(64, '0')}`, position: '0x0' },
            {
              address: callee,
              topics: [calleeAbi.getEvent('Pinged')!.topicHash, `0x${caller.slice(2).padStart(64, '0')}`],
              data: `0x${(1000).toString(16).padStart(64, '0')}`,
              position: '0x0',
            },
          ],
          value: '0x3e8',
        },
        {
          type: 'STATICCALL',
          from: caller,
          gas: fail!.gas,
          gasUsed: fail!.gasUsed,
          to: callee,
          input: calleeAbi.encodeFunctionData('fail'),
          output: failData,
          error: 'execution reverted',
          revertReason: 'callee failed',
        },
      ],
      logs: [
        // The transaction's value first; no fee log at the devnet's gas price 0.
        { address: GAS_TOKEN, topics: [TRANSFER_TOPIC, word(from), word(caller)], data: `0x${(1000).toString(16).padStart(64, '0')}`, position: '0x0' },
        { address: caller, topics: [callerAbi.getEvent('Done')!.topicHash], data: result, position: '0x2' },
      ],
      value: '0x3e8',
    })
    // onlyTopCall: the top frame alone; debug_traceCall gives the same top frame for the same call.
    const top = (await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }])) as Record<string, unknown>
    expect(top).toEqual({ type: 'CALL', from, gas: '0x30d40', gasUsed: receipt.gasUsed, to: caller, input, output: result, value: '0x3e8' })
    const call = (await rpc('debug_traceCall', [{ from, to: caller, data: input, value: '0x3e8', gas: '0x30d40' }, 'latest', { tracer: 'callTracer' }])) as Record<string, unknown> & {
      calls: unknown[]
    }
    expect(call.output).toBe(result)
    expect(call.calls).toHaveLength(2)
    const logger = (await rpc('debug_traceTransaction', [hash])) as { gas: number; failed: boolean; returnValue: string; structLogs: { depth: number; op: string }[] }
    expect(logger.gas).toBe(Number(receipt.gasUsed))
    expect(logger.returnValue).toBe(result.slice(2))
    expect(new Set(logger.structLogs.map((l) => l.depth))).toEqual(new Set([1, 2]))
  })

  it('debug_traceCall of a revert reports the revert data; a creation traces as CREATE', async () => {
    const reverting = '0x60006000fd' // PUSH1 0 PUSH1 0 REVERT
    await rpc('hardhat_setCode', [TINY_ADDRESS, reverting])
    const logged = (await rpc('debug_traceCall', [{ from, to: TINY_ADDRESS }])) as { failed: boolean; returnValue: string; structLogs: unknown[] }
    expect(logged).toEqual({
      gas: 21006,
      failed: true,
      returnValue: '',
      structLogs: [
        { pc: 0, op: 'PUSH1', gas: 5979000, gasCost: 3, depth: 1, stack: [] },
        { pc: 2, op: 'PUSH1', gas: 5978997, gasCost: 3, depth: 1, stack: ['0x0'] },
        { pc: 4, op: 'REVERT', gas: 5978994, gasCost: 0, depth: 1, stack: ['0x0', '0x0'] },
      ],
    })
    // Out of gas at MSTORE (3 static + 3 memory, 4 left): geth puts the error on that step.
    await rpc('hardhat_setCode', [TINY_ADDRESS, TINY])
    expect(await rpc('debug_traceCall', [{ from, to: TINY_ADDRESS, gas: '0x5212' }, 'latest'])).toEqual({
      gas: 21010,
      failed: true,
      returnValue: '',
      structLogs: [
        { pc: 0, op: 'PUSH1', gas: 10, gasCost: 3, depth: 1, stack: [] },
        { pc: 2, op: 'PUSH1', gas: 7, gasCost: 3, depth: 1, stack: ['0x2a'] },
        { pc: 4, op: 'MSTORE', gas: 4, gasCost: 6, depth: 1, stack: ['0x2a', '0x0'], error: 'out of gas' },
      ],
    })
    const poor = '0x00000000000000000000000000000000000000aa'
    await expect(rpc('debug_traceCall', [{ from: poor, to: TINY_ADDRESS, value: '0x1' }])).rejects.toMatchObject({ code: -32000, message: 'insufficient funds for transfer' })
    const created = (await rpc('debug_traceCall', [{ from, data: `0x600a600c600039600a6000f3${TINY.slice(2, 22)}` }, 'latest', { tracer: 'callTracer' }])) as Record<string, string>
    expect(created.type).toBe('CREATE')
    expect(created.to).toMatch(/^0x[0-9a-f]{40}$/)
    expect(created.output).toBe(`0x${TINY.slice(2, 22)}`)
  })

  it('answers ethers over HTTP', async () => {
    const { rpcUrl } = await devnet.listen()
    const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true })
    try {
      const hash = await sendTiny()
      const trace = (await provider.send('debug_traceTransaction', [hash, { tracer: 'callTracer' }])) as Record<string, string>
      expect(trace).toEqual({ type: 'CALL', from, gas: '0x186a0', gasUsed: '0xa369', to: TINY_ADDRESS, input: '0x', output: `0x${W2A}`, value: '0x0' })
      const logged = (await provider.send('debug_traceCall', [{ from, to: TINY_ADDRESS }, 'latest', { disableStack: true }])) as { structLogs: unknown[] }
      expect(logged.structLogs).toHaveLength(13)
    } finally {
      provider.destroy()
    }
  })

  it('refuses native transactions, unknown hashes and unknown tracers with clear errors', async () => {
    // The genesis block's transactions are native ones (the token contracts' deployment).
    const native = chainOf(devnet).blockAt(0)!.transactions[0]!
    expect(native.kind).not.toBe('evm')
    await expect(rpc('debug_traceTransaction', [toHex(native.hash)])).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('is a native transaction: only EVM (EIP-155) transactions can be traced'),
    })
    await expect(rpc('debug_traceTransaction', [`0x${'11'.repeat(32)}`])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('not found') })
    const hash = await sendTiny()
    await expect(rpc('debug_traceTransaction', [hash, { tracer: 'nosuchTracer' }])).rejects.toMatchObject({ code: -32000, message: 'unkown tracer type: nosuchTracer' })
    await expect(rpc('debug_traceTransaction', [hash, { enableMemory: 'yes' }])).rejects.toMatchObject({ code: -32602 })
    await expect(rpc('debug_traceTransaction', [hash, 5])).rejects.toMatchObject({ code: -32602 })
    await expect(rpc('debug_traceTransaction', ['0x12'])).rejects.toMatchObject({ code: -32602 })
  })
})
