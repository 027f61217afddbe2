/**
 * go-ethereum's flatCallTracer (evm/tracing/flatCallTracer.ts), SELFDESTRUCT frames
 * (callTracer) and `suicide` traces (trace_*), and the chain's synthetic gas-token
 * Transfer logs in callTracer's `withLog` (issue 34, items 1, 2 and 4). Fixtures:
 * TraceCaller (a call with value, a reverted STATICCALL, a log) and SelfDestruct (a
 * payout to a beneficiary; one undone by a revert).
 */
import { Interface } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SelfDestruct, TraceCallee, TraceCaller } from '../fixtures/index.ts'
import { createDevnet, type CallFrameJson, type CallLogJson, type Devnet, type ParityTrace } from '../src/index.ts'
import { delegatorInitCode } from './anvil-support.ts'

const BENEFICIARY = '0x00000000000000000000000000000000000000be'
const GAS_TOKEN = '0x0000000000000000000000000000000000000002'
/** 1 gwei: the devnet's default gas price is 0, and a fee log needs a fee. */
const GWEI = '0x3b9aca00'
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const word = (address: string): string => `0x${address.slice(2).padStart(64, '0')}`

/** The logs of a callTracer tree in the order they were emitted: each frame's, interleaved with its sub-calls by `position`. */
function emitted(frame: CallFrameJson): CallLogJson[] {
  const logs = frame.logs ?? []
  const calls = frame.calls ?? []
  const out: CallLogJson[] = []
  for (let i = 0; i <= calls.length; i++) {
    out.push(...logs.filter((log) => Number(log.position) === i))
    if (i < calls.length) out.push(...emitted(calls[i]!))
  }
  return out
}

describe('flatCallTracer, SELFDESTRUCT frames and the gas-token logs in traces', () => {
  let devnet: Devnet
  let from: string
  let caller: string
  let run: string
  let deploy: string
  let destroyer: string
  let destroy: string
  let undone: string
  const callerAbi = new Interface(TraceCaller.abi as never)
  const destroyAbi = new Interface(SelfDestruct.abi as never)
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)
  const receipt = async (tx: unknown) =>
    (await rpc('eth_getTransactionReceipt', [tx])) as {
      contractAddress: string
      blockHash: string
      blockNumber: string
      gasUsed: string
      transactionIndex: string
      logs: { address: string; topics: string[]; data: string }[]
    }

  beforeAll(async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false })
    from = devnet.accounts[0]!.address.toLowerCase()
    const callee = (await receipt(await rpc('eth_sendTransaction', [{ from, data: TraceCallee.bytecode }]))).contractAddress
    caller = (await receipt(await rpc('eth_sendTransaction', [{ from, data: TraceCaller.bytecode + callerAbi.encodeDeploy([callee]).slice(2) }]))).contractAddress
    run = (await rpc('eth_sendTransaction', [{ from, to: caller, data: callerAbi.encodeFunctionData('run'), value: '0x3e8', gas: '0x30d40', gasPrice: GWEI }])) as string
    deploy = (await rpc('eth_sendTransaction', [{ from, data: SelfDestruct.bytecode, value: '0x64' }])) as string
    destroyer = (await receipt(deploy)).contractAddress
    destroy = (await rpc('eth_sendTransaction', [{ from, to: destroyer, data: destroyAbi.encodeFunctionData('destroy', [BENEFICIARY]), value: '0x5', gasPrice: GWEI }])) as string
    const survivor = (await receipt(await rpc('eth_sendTransaction', [{ from, data: SelfDestruct.bytecode, value: '0x9' }]))).contractAddress
    undone = (await rpc('eth_sendTransaction', [{ from, to: survivor, data: destroyAbi.encodeFunctionData('tryDestroyAndRevert', [BENEFICIARY]), gasPrice: GWEI }])) as string
  })
  afterAll(async () => {
    await devnet?.close()
  })

  it('flatCallTracer: trace_transaction’s entries with the transaction’s gas at the top, geth’s errors and no creationMethod', async () => {
    const flat = (await rpc('debug_traceTransaction', [run, { tracer: 'flatCallTracer' }])) as ParityTrace[]
    const parity = (await rpc('trace_transaction', [run])) as ParityTrace[]
    const r = await receipt(run)
    expect(flat.map((t) => [t.type, t.traceAddress, t.subtraces])).toEqual(parity.map((t) => [t.type, t.traceAddress, t.subtraces]))
    for (const trace of flat) expect(trace).toMatchObject({ blockHash: r.blockHash, blockNumber: Number(r.blockNumber), transactionHash: run, transactionPosition: Number(r.transactionIndex) })
    // The top frame as the callTracer's root: the gas limit and the receipt's gas used (geth counts the intrinsic gas there; trace_* does not).
    expect(flat[0]!.action).toMatchObject({ gas: '0x30d40', callType: 'call', from, to: caller, value: '0x3e8' })
    expect(flat[0]!.result).toMatchObject({ gasUsed: r.gasUsed })
    expect(BigInt((flat[0]!.action as { gas: string }).gas) - BigInt((parity[0]!.action as { gas: string }).gas)).toBe(21_064n)
    // Below the top, the same as trace_*, but for the error text.
    expect(flat[1]).toEqual(parity[1])
    expect(flat[2]).toEqual({ ...parity[2], error: 'execution reverted' })
    const converted = (await rpc('debug_traceTransaction', [run, { tracer: 'flatCallTracer', tracerConfig: { convertParityErrors: true } }])) as ParityTrace[]
    expect(converted[2]).toEqual(parity[2])
  })

  it('flatCallTracer: a create has no creationMethod; debug_traceCall has no hashes; a bad config is -32602', async () => {
    const [create] = (await rpc('debug_traceTransaction', [deploy, { tracer: 'flatCallTracer' }])) as ParityTrace[]
    expect(create).toMatchObject({ type: 'create', action: { from, value: '0x64' }, result: { address: destroyer } })
    expect(create!.action).not.toHaveProperty('creationMethod')
    const call = (await rpc('debug_traceCall', [
      { from, to: caller, data: callerAbi.encodeFunctionData('run'), value: '0x3e8', gas: '0x30d40' },
      'latest',
      { tracer: 'flatCallTracer' },
    ])) as ParityTrace[]
    const height = Number(await rpc('eth_blockNumber', []))
    expect(call.length).toBe(3)
    for (const trace of call) expect(trace).toMatchObject({ blockHash: null, blockNumber: height, transactionHash: null, transactionPosition: 0 })
    await expect(rpc('debug_traceTransaction', [run, { tracer: 'flatCallTracer', tracerConfig: { includePrecompiles: 'yes' } }])).rejects.toMatchObject({ code: -32602 })
    await expect(rpc('debug_traceTransaction', [run, { tracer: 'flatCallTracer', tracerConfig: [] }])).rejects.toMatchObject({ code: -32602 })
  })

  it('flatCallTracer leaves calls to precompiles out unless includePrecompiles; trace_* and callTracer keep them', async () => {
    // STATICCALL(gas, 0x04 identity, 0, 0, 0, 0), then STOP.
    const code = '0x600060006000600060045afa00'
    const at = '0x00000000000000000000000000000000000c0de4'
    const options = (tracer: string, tracerConfig?: object) => ({ tracer, ...(tracerConfig && { tracerConfig }), stateOverrides: { [at]: { code } } })
    const plain = (await rpc('debug_traceCall', [{ from, to: at }, 'latest', options('flatCallTracer')])) as ParityTrace[]
    expect(plain.map((t) => t.traceAddress)).toEqual([[]])
    expect(plain[0]!.subtraces).toBe(0)
    const all = (await rpc('debug_traceCall', [{ from, to: at }, 'latest', options('flatCallTracer', { includePrecompiles: true })])) as ParityTrace[]
    expect(all.map((t) => t.traceAddress)).toEqual([[], [0]])
    expect(all[0]!.subtraces).toBe(1)
    expect(all[1]!.action).toMatchObject({ callType: 'staticcall', from: at, to: '0x0000000000000000000000000000000000000004', value: '0x0' })
    const tree = (await rpc('debug_traceCall', [{ from, to: at }, 'latest', options('callTracer')])) as CallFrameJson
    expect(tree.calls?.map((c) => c.type)).toEqual(['STATICCALL'])
  })

  it('SELFDESTRUCT: a callTracer frame (gas 0, the balance as value), a suicide trace in flatCallTracer and trace_*', async () => {
    const tree = (await rpc('debug_traceTransaction', [destroy, { tracer: 'callTracer' }])) as CallFrameJson
    // 0x64 at the deploy, 0x5 with the call.
    expect(tree.calls).toEqual([{ type: 'SELFDESTRUCT', from: destroyer, gas: '0x0', gasUsed: '0x0', to: BENEFICIARY, input: '0x', value: '0x69' }])
    const suicide = { type: 'suicide', action: { address: destroyer, refundAddress: BENEFICIARY, balance: '0x69' }, subtraces: 0, traceAddress: [0] }
    const parity = (await rpc('trace_transaction', [destroy])) as ParityTrace[]
    expect(parity.length).toBe(2)
    expect(parity[0]!.subtraces).toBe(1)
    // OpenEthereum's and Anvil's suicide has `result: null`; geth's flatCallTracer leaves the key out.
    expect(parity[1]).toMatchObject({ ...suicide, result: null })
    const flat = (await rpc('debug_traceTransaction', [destroy, { tracer: 'flatCallTracer' }])) as ParityTrace[]
    const { result: _result, ...parityWithoutResult } = parity[1]!
    expect(flat[1]).toEqual(parityWithoutResult)
    // Otterscan: the frame that self-destructs is a self-destruct (1) in place of its transfer, as Anvil lists it; its trace has the SELFDESTRUCT as Erigon's.
    expect(await rpc('ots_getInternalOperations', [destroy])).toEqual([{ type: 1, from: destroyer, to: BENEFICIARY, value: '0x69' }])
    expect(((await rpc('ots_traceTransaction', [destroy])) as Record<string, unknown>[])[1]).toEqual({
      type: 'SELFDESTRUCT',
      depth: 1,
      from: destroyer,
      to: BENEFICIARY,
      value: '0x69',
      input: '0x',
      output: '0x',
    })
    // Undone by a revert: the frame is there below the failed call, as geth records it.
    const undoneTree = (await rpc('debug_traceTransaction', [undone, { tracer: 'callTracer' }])) as CallFrameJson
    const reverted = undoneTree.calls![0]!
    expect(reverted).toMatchObject({ type: 'CALL', error: 'execution reverted' })
    expect(reverted.calls![0]!.calls).toEqual([expect.objectContaining({ type: 'SELFDESTRUCT', value: '0x9' })])
  })

  it('callTracer withLog: the gas-token Transfer logs where the node emits them; in emission order, the receipt’s logs', async () => {
    for (const tx of [run, destroy, undone]) {
      const tree = (await rpc('debug_traceTransaction', [tx, { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as CallFrameJson
      const r = await receipt(tx)
      expect(
        emitted(tree).map(({ address, topics, data }) => ({ address, topics, data })),
        tx,
      ).toEqual(r.logs.map(({ address, topics, data }) => ({ address, topics, data })))
    }
    const tree = (await rpc('debug_traceTransaction', [run, { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as CallFrameJson
    // The transaction's value first in its frame, the fee last, after both sub-calls.
    expect(tree.logs![0]).toEqual({ address: GAS_TOKEN, topics: [TRANSFER, word(from), word(caller)], data: `0x${'3e8'.padStart(64, '0')}`, position: '0x0' })
    expect(tree.logs!.at(-1)).toMatchObject({ address: GAS_TOKEN, topics: [TRANSFER, word(from), word('0x0000000000000000000000000000000000000007')], position: '0x2' })
    // The callee's value first in its frame.
    expect(tree.calls![0]!.logs![0]).toMatchObject({ address: GAS_TOKEN, topics: [TRANSFER, word(caller), expect.any(String)], position: '0x0' })
    // The payout in the contract's frame, before its SELFDESTRUCT frame.
    const destroyed = (await rpc('debug_traceTransaction', [destroy, { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as CallFrameJson
    expect(destroyed.logs!.find((log) => log.topics[2] === word(BENEFICIARY))).toEqual({
      address: GAS_TOKEN,
      topics: [TRANSFER, word(destroyer), word(BENEFICIARY)],
      data: `0x${'69'.padStart(64, '0')}`,
      position: '0x0',
    })
  })

  it('flatCallTracer and trace_* carry no logs; muxTracer runs flatCallTracer beside callTracer', async () => {
    const flat = (await rpc('debug_traceTransaction', [run, { tracer: 'flatCallTracer' }])) as ParityTrace[]
    for (const trace of flat) expect(Object.keys(trace)).not.toContain('logs')
    const mux = (await rpc('debug_traceTransaction', [run, { tracer: 'muxTracer', tracerConfig: { flatCallTracer: {}, callTracer: { withLog: true } } }])) as {
      flatCallTracer: ParityTrace[]
      callTracer: CallFrameJson
    }
    expect(mux.flatCallTracer).toEqual(flat)
    expect(mux.callTracer.logs?.length).toBeGreaterThan(0)
  })

  it('debug_traceBlockByNumber with flatCallTracer: each transaction’s own position', async () => {
    const r = await receipt(destroy)
    const block = (await rpc('debug_traceBlockByNumber', [r.blockNumber, { tracer: 'flatCallTracer' }])) as { txHash: string; result: ParityTrace[] }[]
    expect(block.map((entry) => entry.txHash)).toContain(destroy)
    for (const entry of block) for (const trace of entry.result) expect(trace).toMatchObject({ transactionHash: entry.txHash, blockHash: r.blockHash, blockNumber: Number(r.blockNumber) })
  })
})

describe('flatCallTracer at traceSizeLimit', () => {
  it('stops past the limit with the size error, naming its own way out', async () => {
    const devnet = await createDevnet({ clock: 'frozen', console: false, traceSizeLimit: 300 })
    try {
      const from = devnet.accounts[0]!.address.toLowerCase()
      const hash = await devnet.rpcUntyped('eth_sendTransaction', [{ from, data: TraceCallee.bytecode }])
      await expect(devnet.rpcUntyped('debug_traceTransaction', [hash, { tracer: 'flatCallTracer' }])).rejects.toMatchObject({
        code: -32000,
        message: 'trace larger than 300 bytes (option traceSizeLimit): trace with the callTracer and its onlyTopCall, or raise traceSizeLimit',
      })
    } finally {
      await devnet.close()
    }
  })
})

describe('callTracer onlyTopCall with a self-destructing top frame', () => {
  it('keeps the payout log of the top frame, and no SELFDESTRUCT frame', async () => {
    const devnet = await createDevnet({ clock: 'frozen', console: false })
    try {
      const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)
      const from = devnet.accounts[0]!.address.toLowerCase()
      const deploy = await rpc('eth_sendTransaction', [{ from, data: SelfDestruct.bytecode, value: '0x64' }])
      const { contractAddress } = (await rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }
      const destroy = await rpc('eth_sendTransaction', [{ from, to: contractAddress, data: new Interface(SelfDestruct.abi as never).encodeFunctionData('destroy', [BENEFICIARY]) }])
      const top = (await rpc('debug_traceTransaction', [destroy, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true, withLog: true } }])) as CallFrameJson
      expect(top.calls).toBeUndefined()
      expect(top.logs!.at(-1)).toEqual({ address: GAS_TOKEN, topics: [TRANSFER, word(contractAddress), word(BENEFICIARY)], data: `0x${'64'.padStart(64, '0')}`, position: '0x0' })
    } finally {
      await devnet.close()
    }
  })
})

describe('callTracer DELEGATECALL and CALLCODE frames', () => {
  it('name the running contract `from` and the code’s address `to`, as geth; 4byteTracer leaves out a CALLCODE to a precompile', async () => {
    const devnet = await createDevnet({ clock: 'frozen', console: false })
    try {
      const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)
      const from = devnet.accounts[0]!.address.toLowerCase()
      const callee = ((await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from, data: TraceCallee.bytecode }])])) as { contractAddress: string }).contractAddress
      const delegator = ((await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from, data: delegatorInitCode(callee) }])])) as { contractAddress: string }).contractAddress
      const data = new Interface(TraceCallee.abi as never).encodeFunctionData('ping', [21n])
      const tree = (await rpc('debug_traceCall', [{ from, to: delegator, data }, 'latest', { tracer: 'callTracer' }])) as CallFrameJson
      expect(tree.calls?.map(({ type, from, to, value }) => ({ type, from, to, value }))).toEqual([
        { type: 'DELEGATECALL', from: delegator, to: callee, value: '0x0' },
        { type: 'CALLCODE', from: delegator, to: callee, value: '0x0' },
      ])
      const flat = (await rpc('debug_traceCall', [{ from, to: delegator, data }, 'latest', { tracer: 'flatCallTracer' }])) as ParityTrace[]
      expect(flat.map((t) => t.action)).toMatchObject([{ callType: 'call' }, { callType: 'delegatecall', from: delegator, to: callee }, { callType: 'callcode', from: delegator, to: callee }])
      // Through a precompile (identity, 0x04) the calls are not counted, as geth leaves precompiles out.
      const viaPrecompile = delegatorInitCode('0x0000000000000000000000000000000000000004')
      const at = '0x00000000000000000000000000000000000c0de5'
      const runtime = `0x${viaPrecompile.slice(2 + 24)}`
      expect(await rpc('debug_traceCall', [{ from, to: at, data }, 'latest', { tracer: '4byteTracer', stateOverrides: { [at]: { code: runtime } } }])).toEqual({ [`${data.slice(0, 10)}-32`]: 1 })
    } finally {
      await devnet.close()
    }
  })
})
