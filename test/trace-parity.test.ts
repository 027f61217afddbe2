/**
 * Parity's trace_* (issue 34, item 1): trace_transaction, trace_get and trace_block in
 * the shapes Erigon and Anvil serve (rpc/parityTrace.ts), on the TraceCaller fixture
 * (a call with value to the callee's `ping(uint256)`, a reverted STATICCALL to its
 * `fail()`), a deploy and a plain value transfer.
 */
import { Interface, Wallet } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TraceCallee, TraceCaller } from '../fixtures/index.ts'
import { createDevnet, type Devnet, type ParityTrace } from '../src/index.ts'

describe('trace_* (Parity)', () => {
  let devnet: Devnet
  let from: string
  let callee: string
  let caller: string
  let deployHash: string
  let hash: string
  const callerAbi = new Interface(TraceCaller.abi as never)
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)
  const receipt = async (tx: string) => (await rpc('eth_getTransactionReceipt', [tx])) as { contractAddress: string; blockHash: string; blockNumber: string; gasUsed: string }

  beforeAll(async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false })
    from = devnet.accounts[0]!.address.toLowerCase()
    callee = (await receipt((await rpc('eth_sendTransaction', [{ from, data: TraceCallee.bytecode }])) as string)).contractAddress
    deployHash = (await rpc('eth_sendTransaction', [{ from, data: TraceCaller.bytecode + callerAbi.encodeDeploy([callee]).slice(2) }])) as string
    caller = (await receipt(deployHash)).contractAddress
    hash = (await rpc('eth_sendTransaction', [{ from, to: caller, data: callerAbi.encodeFunctionData('run'), value: '0x3e8', gas: '0x30d40' }])) as string
  })
  afterAll(async () => {
    await devnet?.close()
  })

  it('trace_transaction: one trace per frame, depth first, with traceAddress, subtraces, position and Parity errors', async () => {
    const traces = (await rpc('trace_transaction', [hash])) as ParityTrace[]
    const r = await receipt(hash)
    expect(traces.length).toBe(3)
    for (const trace of traces) {
      expect(trace).toMatchObject({ blockHash: r.blockHash, blockNumber: Number(r.blockNumber), transactionHash: hash, transactionPosition: 0 })
    }
    const [top, ping, fail] = traces as [ParityTrace, ParityTrace, ParityTrace]
    expect(top).toMatchObject({ type: 'call', traceAddress: [], subtraces: 2, action: { callType: 'call', from, to: caller, value: '0x3e8', input: callerAbi.encodeFunctionData('run') } })
    // The top frame's gas leaves out the intrinsic gas, as Parity's does: 21,000 + 4 data bytes at 16.
    expect(BigInt((top.action as { gas: string }).gas)).toBe(0x30d40n - 21_064n)
    expect(BigInt((top.result as { gasUsed: string }).gasUsed)).toBe(BigInt(r.gasUsed) - 21_064n)
    expect(ping).toMatchObject({ type: 'call', traceAddress: [0], subtraces: 0, action: { callType: 'call', from: caller, to: callee } })
    expect(ping.result).toMatchObject({ output: expect.stringMatching(/^0x/) })
    expect(fail).toMatchObject({ type: 'call', traceAddress: [1], subtraces: 0, error: 'Reverted', action: { callType: 'staticcall', from: caller, to: callee, value: '0x0' } })
    // Anvil keeps a reverted frame's result, with the revert data as output.
    expect(fail.result).toMatchObject({ output: expect.stringMatching(/^0x08c379a0/) })
    // Keys in Parity's order.
    expect(Object.keys(top)).toEqual(['action', 'blockHash', 'blockNumber', 'result', 'subtraces', 'traceAddress', 'transactionHash', 'transactionPosition', 'type'])
  })

  it('trace_transaction of a deploy is a create trace with the new address and its code; of a transfer, one call', async () => {
    const [create] = (await rpc('trace_transaction', [deployHash])) as ParityTrace[]
    const code = (await rpc('eth_getCode', [caller, 'latest'])) as string
    expect(create).toMatchObject({ type: 'create', traceAddress: [], action: { from, value: '0x0', creationMethod: 'create' }, result: { address: caller, code } })
    const transfer = (await rpc('eth_sendTransaction', [{ from, to: '0x00000000000000000000000000000000000000aa', value: '0x7' }])) as string
    const traces = (await rpc('trace_transaction', [transfer])) as ParityTrace[]
    expect(traces).toHaveLength(1)
    expect(traces[0]).toMatchObject({
      type: 'call',
      subtraces: 0,
      action: { callType: 'call', to: '0x00000000000000000000000000000000000000aa', value: '0x7', input: '0x', gas: '0x0' },
      result: { gasUsed: '0x0', output: '0x' },
    })
  })

  it('trace_call: the call’s output and flat traces without block positions; stateDiff and vmTrace refused', async () => {
    const call = { from, to: caller, data: callerAbi.encodeFunctionData('run'), value: '0x3e8', gas: '0x30d40' }
    const result = (await rpc('trace_call', [call, ['trace'], 'latest'])) as { output: string; trace: ParityTrace[]; stateDiff: null; vmTrace: null }
    const mined = (await rpc('trace_transaction', [hash])) as ParityTrace[]
    expect(result.trace.map((t) => ({ type: t.type, traceAddress: t.traceAddress, error: t.error, blockHash: t.blockHash }))).toEqual(
      mined.map((t) => ({ type: t.type, traceAddress: t.traceAddress, error: t.error, blockHash: null })),
    )
    expect(result.stateDiff).toBeNull()
    await expect(rpc('trace_call', [call, ['stateDiff']])).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/stateDiff/) })
    await expect(rpc('trace_call', [call, ['vmTrace']])).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/vmTrace/) })
  })

  it('trace_rawTransaction: a signed transaction run as a call from its signer, not sent', async () => {
    const wallet = new Wallet(devnet.accounts[0]!.privateKey)
    const nonce = Number(await rpc('eth_getTransactionCount', [from, 'latest']))
    const raw = await wallet.signTransaction({
      type: 0,
      chainId: Number(await rpc('eth_chainId', [])),
      nonce,
      gasPrice: BigInt((await rpc('eth_gasPrice', [])) as string),
      gasLimit: 200_000n,
      to: caller,
      data: callerAbi.encodeFunctionData('run'),
      value: 1000n,
    })
    const result = (await rpc('trace_rawTransaction', [raw, ['trace']])) as { trace: ParityTrace[] }
    expect(result.trace.map((t) => [t.type, t.traceAddress, t.error, t.transactionHash])).toEqual([
      ['call', [], undefined, null],
      ['call', [0], undefined, null],
      ['call', [1], 'Reverted', null],
    ])
    expect(Number(await rpc('eth_getTransactionCount', [from, 'latest']))).toBe(nonce)
    await expect(rpc('trace_rawTransaction', [raw, ['stateDiff']])).rejects.toMatchObject({ code: -32602 })
  })

  it('trace_transaction of an unknown hash is null', async () => {
    expect(await rpc('trace_transaction', [`0x${'11'.repeat(32)}`])).toBeNull()
  })

  it('trace_get picks as Erigon does: index n is the trace after the top frame’s n-th; more than one index is null', async () => {
    const traces = (await rpc('trace_transaction', [hash])) as ParityTrace[]
    expect(await rpc('trace_get', [hash, ['0x0']])).toEqual(traces[1])
    expect(await rpc('trace_get', [hash, [1]])).toEqual(traces[2])
    expect(await rpc('trace_get', [hash, ['0x5']])).toBeNull()
    expect(await rpc('trace_get', [hash, [0, 0]])).toBeNull()
    await expect(rpc('trace_get', [hash, 'x'])).rejects.toMatchObject({ code: -32602 })
  })

  it('trace_block: the traces of the block’s transactions in order; null past the tip', async () => {
    const r = await receipt(hash)
    expect(await rpc('trace_block', [r.blockNumber])).toEqual(await rpc('trace_transaction', [hash]))
    expect(await rpc('trace_block', ['0xffff'])).toBeNull()
  })
})

describe('trace_replayTransaction (Parity)', () => {
  let devnet: Devnet
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)
  afterAll(async () => {
    await devnet?.close()
  })

  it('answers output, trace and stateDiff: the fee and the value in balances, the nonce, a born account; vmTrace refused', async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false })
    const from = devnet.accounts[0]!.address.toLowerCase()
    const to = '0x00000000000000000000000000000000000000bb'
    const before = BigInt((await rpc('eth_getBalance', [from, 'latest'])) as string)
    const hash = (await rpc('eth_sendTransaction', [{ from, to, value: '0x9' }])) as string
    const after = BigInt((await rpc('eth_getBalance', [from, 'latest'])) as string)
    const result = (await rpc('trace_replayTransaction', [hash, ['trace', 'stateDiff']])) as {
      output: string
      trace: ParityTrace[]
      stateDiff: Record<string, { balance: unknown; nonce: unknown; code: unknown; storage: unknown }>
      vmTrace: null
    }
    expect(result.output).toBe('0x')
    expect(result.vmTrace).toBeNull()
    expect(result.trace).toEqual([{ ...((await rpc('trace_transaction', [hash])) as ParityTrace[])[0], blockHash: null, blockNumber: null, transactionHash: null, transactionPosition: null }])
    expect(result.stateDiff[from]).toEqual({
      balance: { '*': { from: `0x${before.toString(16)}`, to: `0x${after.toString(16)}` } },
      code: '=',
      nonce: { '*': { from: '0x0', to: '0x1' } },
      storage: {},
    })
    expect(result.stateDiff[to]).toEqual({ balance: { '+': '0x9' }, code: { '+': '0x' }, nonce: { '+': '0x0' }, storage: {} })
    const only = (await rpc('trace_replayTransaction', [hash, ['stateDiff']])) as { trace: unknown; stateDiff: unknown }
    expect(only.trace).toBeNull()
    expect(only.stateDiff).toEqual(result.stateDiff)
    await expect(rpc('trace_replayTransaction', [hash, ['vmTrace']])).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/vmTrace/) })
    await expect(rpc('trace_replayTransaction', [hash, ['bogus']])).rejects.toMatchObject({ code: -32602 })
    const r = (await rpc('eth_getTransactionReceipt', [hash])) as { blockNumber: string }
    expect(await rpc('trace_replayBlockTransactions', [r.blockNumber, ['trace', 'stateDiff']])).toEqual([{ ...result, transactionHash: hash }])
    expect(await rpc('trace_replayBlockTransactions', ['0xffff', ['trace']])).toBeNull()
  })
})

describe('trace_block and trace_replayBlockTransactions replay a block once', () => {
  let devnet: Devnet
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)
  afterAll(async () => {
    await devnet?.close()
  })

  it('each transaction’s traces and state diff equal its own replay, where the block’s transactions touch the same accounts and slots', async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false })
    const from = devnet.accounts[0]!.address.toLowerCase()
    const abi = new Interface(TraceCaller.abi as never)
    const callee = ((await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from, data: TraceCallee.bytecode }])])) as { contractAddress: string }).contractAddress
    const caller = (
      (await rpc('eth_getTransactionReceipt', [await rpc('eth_sendTransaction', [{ from, data: TraceCaller.bytecode + abi.encodeDeploy([callee]).slice(2) }])])) as { contractAddress: string }
    ).contractAddress
    await rpc('evm_setAutomine', [false])
    const hashes: string[] = []
    for (let i = 0; i < 4; i++) {
      hashes.push((await rpc('eth_sendTransaction', [{ from, to: caller, data: abi.encodeFunctionData('run'), value: `0x${(1000 + i).toString(16)}`, gas: '0x30d40' }])) as string)
      hashes.push((await rpc('eth_sendTransaction', [{ from, to: '0x00000000000000000000000000000000000000aa', value: '0x5' }])) as string)
    }
    await rpc('evm_mine', [])
    const block = ((await rpc('eth_getTransactionReceipt', [hashes[0]])) as { blockNumber: string }).blockNumber
    const one = await Promise.all(hashes.map((hash) => rpc('trace_replayTransaction', [hash, ['trace', 'stateDiff']])))
    expect(await rpc('trace_replayBlockTransactions', [block, ['trace', 'stateDiff']])).toEqual(one.map((result, i) => ({ ...(result as object), transactionHash: hashes[i] })))
    const traces = (await Promise.all(hashes.map((hash) => rpc('trace_transaction', [hash])))) as unknown[][]
    expect(await rpc('trace_block', [block])).toEqual(traces.flat())
    // The sender's nonce moves by one in each diff: each starts from the transaction before it.
    expect(one.map((r) => ((r as { stateDiff: Record<string, { nonce: unknown }> }).stateDiff[from]!.nonce as { '*': { from: string } })['*'].from)).toEqual(
      hashes.map((_, i) => `0x${(2 + i).toString(16)}`),
    )
  })
})

describe('trace_filter (Parity)', () => {
  let devnet: Devnet
  const rpc = (method: string, params: unknown[]) => devnet.rpcUntyped(method, params)
  afterAll(async () => {
    await devnet?.close()
  })

  it('matches by fromAddress / toAddress (union by default, intersection on request), pages with after and count, bounds the span', async () => {
    devnet = await createDevnet({ clock: 'frozen', console: false, logsBlockRange: 2 })
    const a = devnet.accounts[0]!.address.toLowerCase()
    const b = devnet.accounts[1]!.address.toLowerCase()
    const x = '0x00000000000000000000000000000000000000cc'
    const hashes: string[] = []
    hashes.push((await rpc('eth_sendTransaction', [{ from: a, to: x, value: '0x1' }])) as string)
    hashes.push((await rpc('eth_sendTransaction', [{ from: b, to: x, value: '0x2' }])) as string)
    hashes.push((await rpc('eth_sendTransaction', [{ from: a, to: b, value: '0x3' }])) as string)
    const hashesOf = (traces: unknown) => (traces as ParityTrace[]).map((t) => t.transactionHash)
    const all = { fromBlock: '0x1', toBlock: 'latest' }
    expect(hashesOf(await rpc('trace_filter', [all]))).toEqual(hashes)
    expect(hashesOf(await rpc('trace_filter', [{ ...all, fromAddress: [a] }]))).toEqual([hashes[0], hashes[2]])
    expect(hashesOf(await rpc('trace_filter', [{ ...all, fromAddress: [b], toAddress: [b] }]))).toEqual([hashes[1], hashes[2]])
    expect(hashesOf(await rpc('trace_filter', [{ ...all, fromAddress: [a], toAddress: [x], mode: 'intersection' }]))).toEqual([hashes[0]])
    expect(hashesOf(await rpc('trace_filter', [{ ...all, after: 1, count: 1 }]))).toEqual([hashes[1]])
    await expect(rpc('trace_filter', [{ fromBlock: '0x0', toBlock: '0x0', mode: 'x' }])).rejects.toMatchObject({ code: -32602 })
    // The span bound is eth_getLogs' (logsBlockRange).
    await expect(rpc('trace_filter', [{ fromBlock: '0x0', toBlock: '0x3' }])).rejects.toMatchObject({ code: -32000 })
  })
})
