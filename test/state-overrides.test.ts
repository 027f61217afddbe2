/**
 * State overrides and block overrides (go-ethereum's `override.StateOverride` and
 * `override.BlockOverrides`) on eth_call, eth_estimateGas and debug_traceCall: viem's
 * `call({ stateOverride, blockOverrides })` and ethers' `provider.send('eth_call', …)`,
 * in process and over HTTP, run the overridden code, balance, nonce and storage in the
 * overridden block context; the state after the call is what it was (a snapshot taken
 * before reverts to the same); every field the devnet cannot honour is refused with
 * -32602 naming it; on a fork, above the fork block the fork applies them and below it
 * the remote gets them as sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, custom, http, type Hex, type PublicClient } from 'viem'
import { BrowserProvider, JsonRpcProvider, getCreateAddress } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { forkedHistory, rawRpc, STRANGER, type ForkedHistory } from './fork-support.ts'

/** Where the tests put code: an address nobody holds. */
const PROBE = '0x00000000000000000000000000000000000be5e1'
const OTHER = '0x00000000000000000000000000000000000000aa'

/** Runtime code that stores the 32-byte words `pushes` (each leaves one value on the stack) at 0, 32, … and returns them. */
function returning(...pushes: string[]): Hex {
  const body = pushes.map((push, i) => `${push}60${(i * 32).toString(16).padStart(2, '0')}52`).join('')
  return `0x${body}60${(pushes.length * 32).toString(16).padStart(2, '0')}6000f3`
}

const NUMBER = '43'
const TIMESTAMP = '42'
const COINBASE = '41'
const GASLIMIT = '45'
const DIFFICULTY = '44'
const SLOAD0 = '600054'
const SLOAD1 = '600154'
const SELFBALANCE = '47'
/** CREATE of empty code: the new address depends on the creator's nonce. */
const CREATE_EMPTY = '600060006000f0'
const BASEFEE = '48'

/** The 32-byte words of `data`, as bigints. */
function words(data: string): bigint[] {
  const hex = data.slice(2)
  const out: bigint[] = []
  for (let i = 0; i < hex.length; i += 64) out.push(BigInt(`0x${hex.slice(i, i + 64)}`))
  return out
}

const slot = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`

let devnet: Devnet
let rpcUrl: string

beforeAll(async () => {
  devnet = await createDevnet({ console: false })
  ;({ rpcUrl } = await devnet.listen())
  // Some history, so that block overrides differ from the block's own values.
  await devnet.mine(3)
})

afterAll(async () => {
  await devnet?.close()
})

/** Deploys `runtime` (after the init code `prelude` runs) from dev account 0; resolves to its address. */
async function deploy(runtime: Hex, prelude = ''): Promise<string> {
  const size = (runtime.length - 2) / 2
  // PUSH1 size DUP1 PUSH1 offset PUSH1 0 CODECOPY PUSH1 0 RETURN, then the runtime.
  const offset = prelude.length / 2 + 11
  const init = `0x${prelude}60${size.toString(16).padStart(2, '0')}8060${offset.toString(16).padStart(2, '0')}6000396000f3${runtime.slice(2)}`
  const hash = await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, data: init, gas: '0x30000' }])
  const receipt = (await devnet.rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string; status: string }
  expect(receipt.status).toBe('0x1')
  return receipt.contractAddress
}

/** Answers a JSON-RPC call over HTTP: the result, or the error object. */
async function overHttp(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  return JSON.parse(await rawRpc(rpcUrl, method, params))
}

/** The state the tests override, read before and after every call: it must not move. */
async function stateOf(d: Devnet): Promise<unknown[]> {
  return Promise.all([
    d.rpc('eth_getCode', [PROBE, 'latest']),
    d.rpc('eth_getBalance', [PROBE, 'latest']),
    d.rpc('eth_getTransactionCount', [PROBE, 'latest']),
    d.rpc('eth_getStorageAt', [PROBE, '0x0', 'latest']),
    d.rpc('eth_getStorageAt', [PROBE, '0x1', 'latest']),
    d.rpc('eth_getBlockByNumber', ['latest', false]),
  ])
}

describe('eth_call with a state override set', () => {
  it('runs overridden code (viem call({ stateOverride }), in process and over HTTP), and the state after is unchanged', async () => {
    const before = await stateOf(devnet)
    const code = returning(SLOAD0, SELFBALANCE)
    // The bug this fixes: the override used to be ignored (0x).
    expect(await devnet.rpc('eth_call', [{ to: PROBE }, 'latest'])).toBe('0x')
    for (const transport of [custom(devnet), http(rpcUrl)]) {
      const client = createPublicClient({ transport }) as PublicClient
      const { data } = await client.call({
        to: PROBE,
        stateOverride: [{ address: PROBE, code, balance: 1234n, stateDiff: [{ slot: slot(0), value: slot(77) }] }],
      })
      expect(words(data!)).toEqual([77n, 1234n])
    }
    expect(await stateOf(devnet)).toEqual(before)
  })

  it('runs overridden code through ethers (provider.send), in process and over HTTP', async () => {
    const overrides = { [PROBE]: { code: returning(NUMBER) } }
    for (const provider of [new BrowserProvider(devnet), new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true })]) {
      const out = (await provider.send('eth_call', [{ to: PROBE }, 'latest', overrides])) as string
      expect(words(out)).toEqual([BigInt(await devnet.rpc('eth_blockNumber'))])
      provider.destroy()
    }
  })

  it('replaces the whole storage with state, and some slots with stateDiff', async () => {
    // A real slot first: the account holds 5 in slot 0 and 6 in slot 1 for this call (stateDiff) ...
    const code = returning(SLOAD0, SLOAD1)
    const diff = { [PROBE]: { code, stateDiff: { [slot(0)]: slot(5), [slot(1)]: slot(6) } } }
    expect(words((await devnet.rpc('eth_call', [{ to: PROBE }, 'latest', diff])) as string)).toEqual([5n, 6n])
    // ... and with state, the slots it does not name read zero.
    const whole = { [PROBE]: { code, state: { [slot(1)]: slot(9) } } }
    expect(words((await devnet.rpc('eth_call', [{ to: PROBE }, 'latest', whole])) as string)).toEqual([0n, 9n])
  })

  it('state replaces storage the account holds; stateDiff keeps the rest', async () => {
    // A contract that stores 0x2a in slot 0 at creation and returns SLOAD(0), SLOAD(1).
    const at = await deploy(returning(SLOAD0, SLOAD1), '602a600055')
    expect(words((await devnet.rpc('eth_call', [{ to: at }, 'latest'])) as string)).toEqual([42n, 0n])
    expect(words((await devnet.rpc('eth_call', [{ to: at }, 'latest', { [at]: { stateDiff: { [slot(1)]: slot(3) } } }])) as string)).toEqual([42n, 3n])
    expect(words((await devnet.rpc('eth_call', [{ to: at }, 'latest', { [at]: { state: { [slot(1)]: slot(3) } } }])) as string)).toEqual([0n, 3n])
    expect(await devnet.rpc('eth_getStorageAt', [at, '0x0', 'latest'])).toBe(slot(42))
  })

  it('overrides the nonce (the address a CREATE makes) and the sender’s balance (a value it could not pay)', async () => {
    const code = returning(CREATE_EMPTY)
    const out = (await devnet.rpc('eth_call', [{ to: PROBE }, 'latest', { [PROBE]: { code, nonce: '0x7' } }])) as string
    expect(`0x${out.slice(-40)}`).toBe(getCreateAddress({ from: PROBE, nonce: 7 }).toLowerCase())
    // A sender with nothing can send value once its balance is overridden.
    await expect(devnet.rpc('eth_call', [{ from: OTHER, to: STRANGER, value: '0x10' }, 'latest'])).rejects.toMatchObject({ code: -32000 })
    expect(await devnet.rpc('eth_call', [{ from: OTHER, to: STRANGER, value: '0x10' }, 'latest', { [OTHER]: { balance: '0x10' } }])).toBe('0x')
  })

  it('moves a precompile (movePrecompileToAddress): identity (0x04) answers at the new address, and 0x04 is a plain account', async () => {
    const identity = '0x0000000000000000000000000000000000000004'
    const overrides = { [identity]: { movePrecompileToAddress: PROBE } }
    expect(await devnet.rpc('eth_call', [{ to: PROBE, data: '0xdeadbeef' }, 'latest', overrides])).toBe('0xdeadbeef')
    expect(await devnet.rpc('eth_call', [{ to: identity, data: '0xdeadbeef' }, 'latest', overrides])).toBe('0x')
    expect(await devnet.rpc('eth_call', [{ to: identity, data: '0xdeadbeef' }, 'latest'])).toBe('0xdeadbeef')
    // go-ethereum's refusals (-32000).
    await expect(devnet.rpc('eth_call', [{ to: PROBE }, 'latest', { [OTHER]: { movePrecompileToAddress: PROBE } }])).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^account 0x0{38}aa is not a precompile$/i),
    })
    await expect(devnet.rpc('eth_call', [{ to: PROBE }, 'latest', { [identity]: { movePrecompileToAddress: PROBE }, [PROBE]: { balance: '0x1' } }])).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^account 0x[0-9a-fA-F]{40} is already overridden$/),
    })
  })

  it('leaves nothing behind: no code, balance, nonce or storage, not in a snapshot either', async () => {
    const id = await devnet.snapshot()
    const before = await stateOf(devnet)
    const overrides = { [PROBE]: { code: returning(SLOAD0), balance: '0x99', nonce: '0x3', state: { [slot(0)]: slot(1) } } }
    await devnet.rpc('eth_call', [{ to: PROBE }, 'latest', overrides])
    await devnet.rpc('eth_estimateGas', [{ to: PROBE }, 'latest', overrides])
    await devnet.rpc('debug_traceCall', [{ to: PROBE }, 'latest', { stateOverrides: overrides }])
    await devnet.mine()
    await devnet.revert(id)
    expect(await stateOf(devnet)).toEqual(before)
    expect((await stateOf(devnet)).slice(0, 3)).toEqual(['0x', '0x0', '0x0'])
  })
})

describe('eth_call with block overrides', () => {
  it('runs in the overridden block context: number, time, gasLimit, feeRecipient, difficulty (viem and raw, over HTTP too)', async () => {
    const code = returning(NUMBER, TIMESTAMP, GASLIMIT, COINBASE, DIFFICULTY)
    const block = { number: '0x1234', time: '0x5f5e100', gasLimit: '0x989680', feeRecipient: OTHER, difficulty: '0x77' }
    const expected = [0x1234n, 100_000_000n, 10_000_000n, BigInt(OTHER), 0x77n]
    const params = [{ to: PROBE }, 'latest', { [PROBE]: { code } }, block]
    expect(words((await devnet.rpc('eth_call', params as never)) as string)).toEqual(expected)
    expect(words((await overHttp('eth_call', params)).result as string)).toEqual(expected)
    const client = createPublicClient({ transport: custom(devnet) }) as PublicClient
    // viem's blockOverrides have no difficulty (ox BlockOverrides): the block's own, 0.
    const { data } = await client.call({
      to: PROBE,
      stateOverride: [{ address: PROBE, code }],
      blockOverrides: { number: 0x1234n, time: 100_000_000n, gasLimit: 10_000_000n, feeRecipient: OTHER },
    })
    expect(words(data!)).toEqual([...expected.slice(0, 4), 0n])
    // Without them, the block's own values.
    const own = words((await devnet.rpc('eth_call', [{ to: PROBE }, 'latest', { [PROBE]: { code } }])) as string)
    expect(own[0]).toBe(BigInt(await devnet.rpc('eth_blockNumber')))
    expect(own[4]).toBe(0n)
  })

  it('applies block overrides without state overrides too, and the next call sees the chain’s context again', async () => {
    // A contract on chain reading NUMBER and DIFFICULTY.
    const at = await deploy(returning(NUMBER, DIFFICULTY))
    expect(words((await devnet.rpc('eth_call', [{ to: at }, 'latest', null, { number: '0x99', difficulty: '0x5' }])) as string)).toEqual([0x99n, 5n])
    const height = BigInt(await devnet.rpc('eth_blockNumber'))
    expect(words((await devnet.rpc('eth_call', [{ to: at }, 'latest'])) as string)).toEqual([height, 0n])
  })
})

describe('refused: what the devnet cannot honour is -32602 naming it, never ignored', () => {
  const call = { to: PROBE }
  const cases: [string, unknown[], RegExp][] = [
    ['prevRandao (Istanbul has no PREVRANDAO)', [call, 'latest', null, { prevRandao: slot(1) }], /block override "prevRandao" is not supported/],
    ['baseFeePerGas (no base fee, no BASEFEE)', [call, 'latest', null, { baseFeePerGas: '0x1' }], /block override "baseFeePerGas" is not supported: the chain has no base fee/],
    ['blobBaseFee (no blobs)', [call, 'latest', null, { blobBaseFee: '0x1' }], /block override "blobBaseFee" is not supported: the chain has no blobs/],
    ['beaconRoot (go-ethereum: not for this method)', [call, 'latest', null, { beaconRoot: slot(1) }], /block override "beaconRoot" is not supported for this RPC method/],
    ['withdrawals', [call, 'latest', null, { withdrawals: [] }], /block override "withdrawals" is not supported for this RPC method/],
    ['an unknown block field', [call, 'latest', null, { numbr: '0x1' }], /unknown field "numbr"/],
    ['an unknown account field', [call, 'latest', { [PROBE]: { balanse: '0x1' } }], /unknown field "balanse"/],
    ['a malformed balance', [call, 'latest', { [PROBE]: { balance: '12' } }], /invalid argument 2: hex string without 0x prefix \(stateOverrides\[0x[0-9a-fA-F]{40}\]\.balance\)/],
    ['a short storage value', [call, 'latest', { [PROBE]: { stateDiff: { [slot(0)]: '0x01' } } }], /hex string has length 2, want 64 for common.Hash/],
    ['a nonce above 64 bits', [call, 'latest', { [PROBE]: { nonce: '0x10000000000000000' } }], /hex number > 64 bits/],
    ['an override set that is not an object', [call, 'latest', []], /cannot unmarshal non-object/],
  ]
  for (const [name, params, message] of cases) {
    it(name, async () => {
      const param = params.length === 4 ? 'blockOverrides' : 'stateOverrides'
      await expect(devnet.rpc('eth_call', params as never)).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(message), data: { param } })
      expect((await overHttp('eth_call', params)).error).toMatchObject({ code: -32602, data: { param } })
    })
  }

  it('state with stateDiff for one account: go-ethereum’s error', async () => {
    await expect(devnet.rpc('eth_call', [call, 'latest', { [PROBE]: { state: {}, stateDiff: {} } }])).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^account 0x[0-9a-fA-F]{40} has both 'state' and 'stateDiff'$/),
    })
  })

  it('the same refusals on eth_estimateGas and inside debug_traceCall’s options', async () => {
    await expect(devnet.rpc('eth_estimateGas', [call, 'latest', null, { baseFeePerGas: '0x1' }])).rejects.toMatchObject({ code: -32602, data: { param: 'blockOverrides' } })
    await expect(devnet.rpc('debug_traceCall', [call, 'latest', { blockOverrides: { blobBaseFee: '0x1' } }])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('block override "blobBaseFee" is not supported'),
      data: { param: 'options' },
    })
    await expect(devnet.rpc('debug_traceCall', [call, 'latest', { stateOverrides: { [PROBE]: { codee: '0x' } } as never }])).rejects.toMatchObject({ code: -32602, data: { param: 'options' } })
  })
})

describe('a hardfork with PREVRANDAO and BASEFEE (cancun)', () => {
  it('honours prevRandao, baseFeePerGas and blobBaseFee, and refuses difficulty', async () => {
    const cancun = await createDevnet({ hardfork: 'cancun', console: false })
    try {
      const code = returning(DIFFICULTY, BASEFEE, '4a')
      const out = await cancun.rpc('eth_call', [{ to: PROBE }, 'latest', { [PROBE]: { code } }, { prevRandao: slot(0xabc), baseFeePerGas: '0x7', blobBaseFee: '0x9' }])
      expect(words(out as string)).toEqual([0xabcn, 7n, 9n])
      // The next call has the chain's values back (the engine's block context is shared).
      expect(words((await cancun.rpc('eth_call', [{ to: PROBE }, 'latest', { [PROBE]: { code } }])) as string)).toEqual([0n, 0n, 1n])
      await expect(cancun.rpc('eth_call', [{ to: PROBE }, 'latest', null, { difficulty: '0x1' }])).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('block override "difficulty" is not supported'),
      })
    } finally {
      await cancun.close()
    }
  })
})

describe('eth_estimateGas and debug_traceCall with overrides', () => {
  it('eth_estimateGas(call, block, stateOverrides, blockOverrides) estimates the overridden code, capped by a gasLimit override', async () => {
    // Code that writes a fresh slot (about 20,000 gas) only when NUMBER is 0x1234.
    // NUMBER PUSH2 0x1234 EQ PUSH1 9 JUMPI STOP JUMPDEST PUSH1 1 PUSH1 0 SSTORE STOP
    const code: Hex = '0x4361123414600957005b600160005500'
    const plain = BigInt((await devnet.rpc('eth_estimateGas', [{ to: PROBE }, 'latest', { [PROBE]: { code } }])) as string)
    const writing = BigInt((await devnet.rpc('eth_estimateGas', [{ to: PROBE }, 'latest', { [PROBE]: { code } }, { number: '0x1234' }])) as string)
    expect(writing - plain).toBeGreaterThan(15_000n)
    await expect(devnet.rpc('eth_estimateGas', [{ to: PROBE }, 'latest', { [PROBE]: { code } }, { number: '0x1234', gasLimit: '0x6000' }])).rejects.toMatchObject({
      code: -32000,
      message: 'gas required exceeds allowance (24576)',
    })
    // The block defaults to pending when left out.
    expect(await devnet.rpc('eth_estimateGas', [{ to: PROBE }, null, { [PROBE]: { code } }, { number: '0x1234' }])).toBe(`0x${writing.toString(16)}`)
    // A balance override lets a sender with nothing estimate a value transfer at a gas price.
    const call = { from: OTHER, to: STRANGER, value: '0x1', gasPrice: '0x3b9aca00' }
    await expect(devnet.rpc('eth_estimateGas', [call])).rejects.toMatchObject({ code: -32000 })
    expect(await devnet.rpc('eth_estimateGas', [call, 'latest', { [OTHER]: { balance: '0xde0b6b3a7640000' } }])).toBe('0x5208')
  })

  it('debug_traceCall(call, block, { stateOverrides, blockOverrides, tracer }) traces the overridden run', async () => {
    const code = returning(NUMBER)
    const trace = (await devnet.rpc('debug_traceCall', [{ to: PROBE }, 'latest', { tracer: 'callTracer', stateOverrides: { [PROBE]: { code } }, blockOverrides: { number: '0x42' } }])) as {
      output: string
      to: string
    }
    expect(trace.to).toBe(PROBE)
    expect(words(trace.output)).toEqual([0x42n])
    const logs = (await devnet.rpc('debug_traceCall', [{ to: PROBE }, 'latest', { stateOverrides: { [PROBE]: { code } } }])) as { structLogs: { op: string }[] }
    expect(logs.structLogs[0]!.op).toBe('NUMBER')
    // The block defaults to latest.
    expect((await devnet.rpc('debug_traceCall', [{ to: PROBE }, null, { tracer: 'callTracer', stateOverrides: { [PROBE]: { code } } }])) as { output: string }).toMatchObject({
      output: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
  })
})

describe('on a fork', () => {
  let forked: ForkedHistory
  beforeAll(async () => {
    forked = await forkedHistory()
    await forked.fork.mine()
  }, 120_000)
  afterAll(async () => {
    await forked?.close()
  })

  it('applies them above the fork block on the fork, and leaves the fork’s state as it was', async () => {
    const { fork, h } = forked
    const before = await stateOf(fork)
    const code = returning(SLOAD0, SELFBALANCE, NUMBER)
    const overrides = { [PROBE]: { code, balance: '0x5', stateDiff: { [slot(0)]: slot(8) } } }
    const out = await fork.rpc('eth_call', [{ to: PROBE }, 'latest', overrides, { number: '0x77' }])
    expect(words(out as string)).toEqual([8n, 5n, 0x77n])
    // A remote account's storage, overridden on top of what the fork fetched: the token's slot 0 is replaced.
    const token = h.token
    const real = await fork.rpc('eth_getStorageAt', [token, '0x0', 'latest'])
    const read = returning(SLOAD0)
    expect(await fork.rpc('eth_call', [{ to: token }, 'latest', { [token]: { code: read } }])).toBe(real)
    expect(await fork.rpc('eth_call', [{ to: token }, 'latest', { [token]: { code: read, state: { [slot(0)]: slot(3) } } }])).toBe(slot(3))
    expect(await fork.rpc('eth_getStorageAt', [token, '0x0', 'latest'])).toBe(real)
    expect(await stateOf(fork)).toEqual(before)
  })

  it('below the fork block the remote runs them, as sent', async () => {
    const { forkUrl, h } = forked
    const code = returning(NUMBER, SLOAD0)
    const params = [{ to: PROBE }, '0x3', { [PROBE]: { code, stateDiff: { [slot(0)]: slot(4) } } }, { number: '0x55' }]
    const mine = await rawRpc(forkUrl, 'eth_call', params)
    expect(mine).toBe(await rawRpc(h.url, 'eth_call', params))
    expect(words(JSON.parse(mine).result)).toEqual([0x55n, 4n])
    const estimate = [{ to: PROBE }, '0x3', { [PROBE]: { code } }]
    expect(await rawRpc(forkUrl, 'eth_estimateGas', estimate)).toBe(await rawRpc(h.url, 'eth_estimateGas', estimate))
    const trace = [{ to: PROBE }, '0x3', { tracer: 'callTracer', stateOverrides: { [PROBE]: { code } } }]
    expect(await rawRpc(forkUrl, 'debug_traceCall', trace)).toBe(await rawRpc(h.url, 'debug_traceCall', trace))
  })
})
