/**
 * eth_callMany (Erigon; alloy Bundle / StateContext as Anvil serves it) and
 * trace_callMany (Erigon / Parity) through ethers' provider.send, in process
 * (BrowserProvider over the devnet) and over HTTP: calls see the calls before them in
 * their bundle and in earlier bundles, block overrides per bundle, a state override,
 * the state context's transaction index; trace_callMany's TraceResults the same as
 * trace_call's for the first call; refusals; the devnet's state unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserProvider, Interface, JsonRpcProvider } from 'ethers'
import { createDevnet, type Devnet } from '../src/index.ts'
import { Store } from '../fixtures/index.ts'
import { rawRpc } from './fork-support.ts'

const STORE = '0x0000000000000000000000000000000000005707'
const PROBE = '0x00000000000000000000000000000000000000cc'
const store = new Interface(Store.abi as never)

let devnet: Devnet
let rpcUrl: string
let providers: [string, { send(method: string, params: unknown[]): Promise<unknown> }][]

/** Runtime code returning NUMBER, TIMESTAMP and the balance of `who`. */
function probeCode(who: string): string {
  return `0x4360005242602052 73${who.slice(2)}3160405260606000f3`.replace(' ', '')
}

function words(data: string): bigint[] {
  const hex = data.slice(2)
  const out: bigint[] = []
  for (let i = 0; i < hex.length; i += 64) out.push(BigInt(`0x${hex.slice(i, i + 64)}`))
  return out
}

beforeAll(async () => {
  devnet = await createDevnet({ console: false })
  ;({ rpcUrl } = await devnet.listen())
  await devnet.rpc('eth_sendTransaction', [{ from: devnet.accounts[0]!.address, to: devnet.accounts[1]!.address, value: '0x5' }])
  providers = [
    ['in process', new BrowserProvider(devnet)],
    ['over HTTP', new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true })],
  ]
})

afterAll(async () => {
  for (const [, p] of providers ?? []) (p as { destroy?: () => void }).destroy?.()
  await devnet?.close()
})

async function stateOf(): Promise<unknown[]> {
  const b = devnet.accounts[1]!.address
  return Promise.all([
    devnet.rpc('eth_blockNumber', []),
    devnet.rpc('eth_getBalance', [b, 'latest']),
    devnet.rpc('eth_getCode', [STORE, 'latest']),
    devnet.rpc('eth_getTransactionCount', [devnet.accounts[0]!.address, 'latest']),
  ])
}

describe('eth_callMany', () => {
  it('carries state across calls and bundles, with block overrides per bundle and a state override (ethers, in process and over HTTP)', async () => {
    const before = await stateOf()
    const [a, b] = [devnet.accounts[0]!.address, devnet.accounts[1]!.address]
    const balance = BigInt(await devnet.rpc('eth_getBalance', [b, 'latest']))
    const height = Number(await devnet.rpc('eth_blockNumber', []))
    for (const [, provider] of providers) {
      const answer = (await provider.send('eth_callMany', [
        [
          {
            transactions: [{ from: a, to: b, value: '0x7' }, { to: STORE, data: store.encodeFunctionData('increment') }, { to: PROBE }],
          },
          {
            blockOverride: { blockNumber: '0x64', timestamp: '0x1234' },
            transactions: [{ to: STORE, data: store.encodeFunctionData('count') }, { to: PROBE }],
          },
        ],
        { blockNumber: 'latest', transactionIndex: -1 },
        { [STORE]: { code: Store.deployedBytecode }, [PROBE]: { code: probeCode(b) } },
      ])) as { value?: string; error?: string }[][]
      expect(answer.map((bundle) => bundle.length)).toEqual([3, 2])
      expect(answer[0]![0]).toEqual({ value: '0x' })
      // The value sent by the first call is seen by the third, the increment by the next bundle.
      const [number, , seen] = words(answer[0]![2]!.value!)
      expect(number).toBe(BigInt(height))
      expect(seen).toBe(balance + 7n)
      expect(words(answer[1]![0]!.value!)).toEqual([1n])
      expect(words(answer[1]![1]!.value!).slice(0, 3)).toEqual([100n, 0x1234n, balance + 7n])
    }
    expect(await stateOf()).toEqual(before)
  })

  it('runs on the state before a block with its first transactionIndex transactions', async () => {
    const b = devnet.accounts[1]!.address
    const run = async (transactionIndex: number) =>
      (
        (await devnet.rpc('eth_callMany', [[{ transactions: [{ to: PROBE }] }], { blockNumber: '0x1', transactionIndex }, { [PROBE]: { code: probeCode(b) } }] as never)) as unknown as {
          value: string
        }[][]
      )[0]![0]!.value
    const [, , beforeTx] = words(await run(0))
    const [number, , afterTx] = words(await run(1))
    expect(number).toBe(1n)
    expect(afterTx! - beforeTx!).toBe(5n)
    expect(BigInt(await devnet.rpc('eth_getBalance', [b, '0x0']))).toBe(beforeTx)
  })

  it('answers a revert as { error } and goes on', async () => {
    const answer = (await devnet.rpc('eth_callMany', [
      [{ transactions: [{ to: PROBE }, { to: STORE, data: store.encodeFunctionData('count') }] }],
      null,
      { [PROBE]: { code: '0x60006000fd' }, [STORE]: { code: Store.deployedBytecode } },
    ] as never)) as unknown as object[][]
    expect(answer[0]![0]).toEqual({ error: 'execution reverted' })
    expect(answer[0]![1]).toEqual({ value: `0x${'00'.repeat(32)}` })
  })

  it('refuses bad input with -32602 naming it; an unfunded value transfer is -32000', async () => {
    const cases: [unknown[], RegExp][] = [
      [[[]], /non-empty array/],
      [[[{ transactions: [{ to: PROBE, maxFeePerGas: '0x1' }] }]], /EIP-1559/],
      [[[{ transactions: [], blockOverride: { blockHash: {} } }]], /blockHash/],
      [[[{ transactions: [], extra: 1 }]], /unknown field/],
      [[[{ transactions: [] }], { transactionIndex: 'x' }], /transactionIndex/],
      [[[{ transactions: [] }], { blockNumber: 'latest', transactionIndex: 99 }], /past the/],
      [[[{ transactions: [] }], null, null, -1], /timeoutMilliSeconds/],
    ]
    for (const [params, message] of cases) {
      const answer = JSON.parse(await rawRpc(rpcUrl, 'eth_callMany', params)) as { error: { code: number; message: string } }
      expect(answer.error.code, JSON.stringify(params)).toBe(-32602)
      expect(answer.error.message).toMatch(message)
    }
    const unfunded = JSON.parse(await rawRpc(rpcUrl, 'eth_callMany', [[{ transactions: [{ from: PROBE, to: STORE, value: '0x1' }] }]])) as { error: { code: number; message: string } }
    expect(unfunded.error.code).toBe(-32000)
    expect(unfunded.error.message).toMatch(/insufficient funds/)
  })
})

describe('trace_callMany', () => {
  it("answers each call's TraceResults, the first as trace_call's, later calls on the state the earlier left", async () => {
    const before = await stateOf()
    const [a, b] = [devnet.accounts[0]!.address, devnet.accounts[1]!.address]
    const first = { from: a, to: b, value: '0x7' }
    for (const [, provider] of providers) {
      const many = (await provider.send('trace_callMany', [
        [
          [first, ['trace']],
          [{ from: a, to: b, value: '0x1' }, []],
        ],
        'latest',
      ])) as { trace: unknown; output: string }[]
      expect(many).toHaveLength(2)
      expect(many[0]).toEqual(await provider.send('trace_call', [first, ['trace'], 'latest']))
      expect(many[1]).toEqual({ output: '0x', stateDiff: null, trace: null, vmTrace: null })
    }
    // The second call reads what the first wrote: a nonce-less CREATE's address moves with the sender's nonce.
    const creates = (await devnet.rpc('trace_callMany', [
      [
        [{ from: a, data: '0x60006000f3' }, ['trace']],
        [{ from: a, data: '0x60006000f3' }, ['trace']],
      ],
    ] as never)) as unknown as { trace: { result: { address: string } }[] }[]
    expect(creates[0]!.trace[0]!.result.address).not.toBe(creates[1]!.trace[0]!.result.address)
    expect(await stateOf()).toEqual(before)
  })

  it('refuses stateDiff, vmTrace and malformed pairs with -32602', async () => {
    for (const params of [[[[{ to: PROBE }, ['stateDiff']]]], [[[{ to: PROBE }, ['vmTrace']]]], [[[{ to: PROBE }]]], [[]], [[[{ to: PROBE }, ['bogus']]]]]) {
      const answer = JSON.parse(await rawRpc(rpcUrl, 'trace_callMany', params)) as { error: { code: number } }
      expect(answer.error.code, JSON.stringify(params)).toBe(-32602)
    }
  })
})
