/**
 * Fuzzing the JSON-RPC surface by function call (fast-check, fixed seed):
 *
 * - every method of the method table (src/rpc/methods/index.ts) with generated params:
 *   JSON values, near-miss hex, huge numbers, wrong arity, prototype keys, real and
 *   mutated signed transactions;
 * - the JSON-RPC envelope: request objects and batches with every field wrong in turn.
 *
 * Properties: no crash (no JavaScript TypeError/RangeError/… behind an answer) and no
 * unhandled rejection, an answer within a bounded time, failures as an RpcError with a
 * standard code (reference §6.1) and no internal path in the message, results that
 * JSON can carry, and the chain unchanged (height, head hash, pool, every account's
 * nonce and balances) after a rejected input. State-changing methods (evm_*, hardhat_*,
 * anvil_*, dev_*, miner_*, eth_send*) may succeed with valid params: after an accepted call the
 * devnet is reverted to its base snapshot.
 *
 * Cases: 300 per method (over 10,000 for the table), 10,000 bodies for the envelope;
 * `npm run test:stress` runs 3 times as many (DUALNET_FUZZ_SCALE), `DUALNET_FUZZ_RUNS`
 * sets the cases per target outright, `DUALNET_FUZZ_SEED` the seed (1337).
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Interface, Wallet } from 'ethers'
import { createDevnet, RpcError, type Devnet } from '../src/index.ts'
import { handleRpcBody } from '../src/rpc/dispatch.ts'
import { rpcMethods } from '../src/rpc/methods/index.ts'
import { FilterRegistry } from '../src/rpc/filters.ts'
import { DEFAULT_RPC_LIMITS } from '../src/rpc/limits.ts'
import { DevnetControls } from '../src/controls/controls.ts'
import type { RpcContext } from '../src/rpc/context.ts'
import { Token } from '../fixtures/index.ts'
import { crashIn, fingerprint, fuzzSettings, leaksInternals, mutatedHex, nearMissHex, paramsOf, paramValue, show, watchUnhandled, within } from './fuzz-support.ts'
import { chainOf } from '../src/devnet/provider.ts'

const STANDARD_CODES = new Set([-32700, -32600, -32601, -32602, -32000, -32003, 3])
/** Methods that may change the chain when their params are valid. */
const CHANGES_STATE = /^(evm_|hardhat_|anvil_|tenderly_|dev_|miner_|eth_send|eth_resend|debug_clearTxpool)/
/**
 * The fuzzed methods: all but the resets (hardhat_reset, anvil_reset), whose valid
 * calls replace the whole ledger, which no snapshot can undo.
 */
const METHODS = Object.keys(rpcMethods).filter((m) => !/_reset$/.test(m))
/** Longest a single answer may take by function call, in ms (generous: the machine is shared). */
const ANSWER_MS = 5_000

let devnet: Devnet
let base: string
/** The chain as the base snapshot holds it: what every revert must bring back. */
let baseFingerprint: string
/** Real values the generators mix in: addresses, block and transaction hashes, raw transactions. */
const known: string[] = []
const raws: string[] = []

beforeAll(async () => {
  // dualnet_gasSnapshot of a known transaction writes its file: in the temporary directory, not the checkout.
  devnet = await createDevnet({ clock: 'frozen', genesisTimestamp: 1_700_000_000, accounts: 3, nativeAccounts: 1, gasSnapshot: { file: join(tmpdir(), `dualnet-fuzz-gas-${process.pid}.json`) } })
  const [a, b] = devnet.accounts as [Devnet['accounts'][number], Devnet['accounts'][number]]
  const token = new Interface(Token.abi as never)
  const deployData = Token.bytecode + token.encodeDeploy(['T', 'T', 10n ** 24n]).slice(2)
  const deployHash = (await devnet.rpc('eth_sendTransaction', [{ from: a.address, data: deployData, gas: '0x2dc6c0', gasPrice: '0x3b9aca00' }])) as string
  const receipt = (await devnet.rpc('eth_getTransactionReceipt', [deployHash])) as { contractAddress: string; blockHash: string }
  const transfer = token.encodeFunctionData('transfer', [b.address, 5n])
  const transferHash = (await devnet.rpc('eth_sendTransaction', [{ from: a.address, to: receipt.contractAddress, data: transfer, gasPrice: '0x3b9aca00' }])) as string
  known.push(a.address, b.address, receipt.contractAddress, deployHash, transferHash, receipt.blockHash, a.base58, devnet.nativeAccounts[0]!.base58)
  known.push('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', transfer, '0x0000000000000000000000000000000000000002')
  // Raw transactions valid at the base state (the next nonce of b), and the mutations below.
  const wallet = new Wallet(b.privateKey)
  for (const fields of [
    { to: a.address, value: 1n },
    { to: receipt.contractAddress, data: transfer },
    { to: null, data: '0x6000' },
  ]) {
    raws.push(await wallet.signTransaction({ type: 0, chainId: 12345, nonce: 0, gasPrice: 10n ** 9n, gasLimit: 100_000n, ...fields }))
  }
  known.push(...raws)
  base = await devnet.snapshot()
  baseFingerprint = fingerprint(devnet)
})

afterAll(async () => {
  await devnet?.close()
})

/** The params generator of `method`: the shared one, plus mutated transactions for the raw-transaction sender. */
function paramsFor(method: string, arity: readonly [number, number]): fc.Arbitrary<unknown> {
  const params = paramsOf(known, arity)
  if (method !== 'eth_sendRawTransaction') return params
  return fc.oneof(params, fc.tuple(mutatedHex(raws.map((r) => r.slice(2))).map((h) => `0x${h}`)), fc.tuple(fc.constantFrom(...raws)))
}

/**
 * [required, max] arguments of `method`, read from its own arity errors (so the
 * generators need no second copy of the method table): params of 0 and 9 arguments.
 */
async function arityOf(method: string): Promise<[number, number]> {
  const message = async (params: unknown[]) => {
    const err = await devnet.rpcUntyped(method, params).then(
      () => undefined,
      (e: unknown) => e,
    )
    if (CHANGES_STATE.test(method)) await restoreBase(`${method} ${show(params)}`)
    return err instanceof Error ? err.message : ''
  }
  const required = Number(/missing value for required argument (\d+)/.exec(await message([]))?.[1] ?? 0)
  const max = Number(/want at most (\d+)/.exec(await message(Array(9).fill(null)))?.[1] ?? 3)
  return [Math.min(required, max), max]
}

/** Findings of one fuzz target, for its printed figures. */
interface Tally {
  cases: number
  accepted: number
  rejected: number
  byCode: Map<number, number>
}

/**
 * One case: calls `method(params)` and checks the properties. Throws (failing the
 * property with a readable message) on a violation.
 */
async function checkCall(method: string, params: unknown, tally: Tally, watch?: ReturnType<typeof watchUnhandled>): Promise<void> {
  const before = fingerprint(devnet)
  const noticed = watch?.count ?? 0
  tally.cases++
  let result: unknown
  let failure: unknown
  try {
    result = await within(ANSWER_MS, devnet.rpcUntyped(method, params as unknown[]), () => `${method} ${show(params)}`)
  } catch (err) {
    failure = err
  }
  if (watch !== undefined) expect(watch.reasons.slice(noticed), `${method} ${show(params)} made Node warn`).toEqual([])
  if (failure === undefined) {
    tally.accepted++
    // Whatever the surface answers must be writable as JSON (no bigint, no cycle).
    expect(() => JSON.stringify(result), `${method} ${show(params)} answered a value JSON cannot carry`).not.toThrow()
    if (CHANGES_STATE.test(method)) await restoreBase(`${method} ${show(params)}`)
    else expect(fingerprint(devnet), `${method} ${show(params)} changed the chain`).toBe(before)
    return
  }
  tally.rejected++
  if (!(failure instanceof RpcError)) throw new Error(`${method} ${show(params)} threw a non-RpcError: ${String(failure)}`, { cause: failure })
  tally.byCode.set(failure.code, (tally.byCode.get(failure.code) ?? 0) + 1)
  const crash = crashIn(failure)
  if (crash !== undefined) throw new Error(`${method} ${show(params)} crashed: ${crash.stack}`)
  expect(STANDARD_CODES.has(failure.code), `${method} ${show(params)}: code ${failure.code}`).toBe(true)
  expect(failure.message.length, `${method} ${show(params)}: empty message`).toBeGreaterThan(0)
  expect(leaksInternals(failure.message), `${method} ${show(params)} leaks: ${failure.message}`).toBe(false)
  expect(fingerprint(devnet), `${method} ${show(params)} was rejected (${failure.message}) but changed the chain`).toBe(before)
}

/**
 * Back to the base state after an accepted state-changing input (a new base id if the
 * fuzzer's own evm_revert consumed it), which must be exactly the base state again.
 */
async function restoreBase(what: string): Promise<void> {
  if (!(await devnet.revert(base, { keep: true }))) base = await devnet.snapshot()
  expect(fingerprint(devnet), `after ${what}, reverting to the base snapshot`).toBe(baseFingerprint)
}

function printTally(name: string, tally: Tally, ms: number): void {
  const codes = [...tally.byCode].map(([c, n]) => `${c}:${n}`).join(' ')
  console.log(`[fuzz] ${name}: ${tally.cases} cases in ${ms.toFixed(0)} ms (${tally.accepted} answered, ${tally.rejected} rejected; codes ${codes})`)
}

describe('fuzz: JSON-RPC method params', () => {
  it('every method, generated params: no crash, bounded answer, standard error, chain unchanged when rejected', async () => {
    const perMethodEnv = process.env.DUALNET_FUZZ_RUNS
    // Default suite: 300 per method (over 19,000 in all); DUALNET_FUZZ_RUNS sets the cases per method.
    const { numRuns, seed } = fuzzSettings(300)
    const unhandled = watchUnhandled()
    const total: Tally = { cases: 0, accepted: 0, rejected: 0, byCode: new Map() }
    const started = performance.now()
    try {
      for (const method of METHODS) {
        const tally: Tally = { cases: 0, accepted: 0, rejected: 0, byCode: new Map() }
        const t0 = performance.now()
        await fc.assert(
          fc.asyncProperty(paramsFor(method, await arityOf(method)), (params) => checkCall(method, params, tally, unhandled)),
          { numRuns, seed, endOnFailure: true },
        )
        if (perMethodEnv !== undefined) printTally(method, tally, performance.now() - t0)
        total.cases += tally.cases
        total.accepted += tally.accepted
        total.rejected += tally.rejected
        for (const [c, n] of tally.byCode) total.byCode.set(c, (total.byCode.get(c) ?? 0) + n)
      }
    } finally {
      unhandled.stop()
    }
    printTally(`${METHODS.length} methods × ${numRuns} (seed ${seed})`, total, performance.now() - started)
    expect(unhandled.reasons).toEqual([])
    expect(total.cases).toBeGreaterThanOrEqual(10_000)
    // The devnet still serves, at the base state.
    expect(await devnet.rpc('eth_blockNumber')).toBe('0x2')
  }, 600_000)

  it('unknown method names get -32601 and change nothing', async () => {
    const { numRuns, seed } = fuzzSettings(2_000)
    const before = fingerprint(devnet)
    const name = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'eth_', 'ETH_BLOCKNUMBER', 'eth_blockNumber '))
    let cases = 0
    await fc.assert(
      fc.asyncProperty(
        name.filter((n) => !Object.hasOwn(rpcMethods, n)),
        paramsOf(known),
        async (method, params) => {
          cases++
          const err = await devnet.rpcUntyped(method, params as unknown[]).then(
            () => undefined,
            (e: unknown) => e,
          )
          expect(err).toBeInstanceOf(RpcError)
          expect((err as RpcError).code).toBe(-32601)
        },
      ),
      { numRuns, seed },
    )
    console.log(`[fuzz] unknown methods: ${cases} cases (seed ${seed})`)
    expect(fingerprint(devnet)).toBe(before)
  }, 300_000)
})

describe('fuzz: sequences of state changes', () => {
  /** Both views of the chain as far as they overlap: height, head hash and time, the head's transactions and nonces, every dev account's gas balance. */
  async function views(): Promise<{ rpc: unknown; rest: unknown }> {
    const height = Number(BigInt((await devnet.rpc('eth_blockNumber')) as string))
    const head = (await devnet.rpc('eth_getBlockByNumber', ['latest', true])) as { hash: string; timestamp: string; transactions: { hash: string; nonce: string }[] }
    const restHeight = (await devnet.rest.get('/api/v1/block/height')).Result as number
    const restHead = (await devnet.rest.get(`/api/v1/block/hash/${restHeight}`)).Result as string
    const restBlock = (await devnet.rest.get(`/api/v1/block/details/height/${restHeight}`)).Result as { Header: { Timestamp: number }; Transactions: { Hash: string; Nonce: number; TxType: number }[] }
    const rpcTxs = head.transactions.map((t) => `${t.hash}:${Number(BigInt(t.nonce))}`)
    const restTxs = restBlock.Transactions.filter((t) => t.TxType === 211).map((t) => `0x${Buffer.from(t.Hash, 'hex').reverse().toString('hex')}:${t.Nonce}`)
    const rpcBalances: string[] = []
    const restBalances: string[] = []
    for (const a of devnet.accounts) {
      rpcBalances.push(BigInt((await devnet.rpc('eth_getBalance', [a.address, 'latest'])) as string).toString())
      restBalances.push(((await devnet.rest.get(`/api/v1/balancev2/${a.base58}`)).Result as { gas: string }).gas)
    }
    const reversed = Buffer.from(restHead, 'hex').reverse().toString('hex')
    return {
      rpc: [height, head.hash, Number(BigInt(head.timestamp)), rpcTxs, rpcBalances],
      rest: [restHeight, `0x${reversed}`, restBlock.Header.Timestamp, restTxs, restBalances],
    }
  }

  it('after every step of a random sequence (sends, mines, setters, time, snapshots and reverts, and any fuzz call) both views agree', async () => {
    const { numRuns, seed } = fuzzSettings(300)
    const accounts = devnet.accounts.map((a) => a.address)
    const account = fc.constantFrom(...accounts)
    const small = fc.nat({ max: 5 }).map((n) => `0x${n.toString(16)}`)
    const snapshots: string[] = []
    const step: fc.Arbitrary<[string, unknown[]]> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(account, account, small, fc.constantFrom('0x0', '0x3b9aca00'))
          .map(([from, to, value, gasPrice]): [string, unknown[]] => ['eth_sendTransaction', [{ from, to, value, gasPrice }]]),
      },
      { weight: 2, arbitrary: fc.constant<[string, unknown[]]>(['evm_mine', []]) },
      { weight: 1, arbitrary: fc.tuple(small, small).map(([n, i]): [string, unknown[]] => ['hardhat_mine', [n, i]]) },
      { weight: 1, arbitrary: fc.boolean().map((on): [string, unknown[]] => ['evm_setAutomine', [on]]) },
      { weight: 1, arbitrary: fc.tuple(account, fc.bigInt({ min: 0n, max: 10n ** 22n })).map(([a, v]): [string, unknown[]] => ['hardhat_setBalance', [a, `0x${v.toString(16)}`]]) },
      // Nonces and times mostly small, sometimes at the edges of the native fields (u32).
      {
        weight: 1,
        arbitrary: fc
          .tuple(account, fc.oneof(fc.nat({ max: 8 }), fc.constantFrom(2 ** 32 - 1, 2 ** 32, 2 ** 40)))
          .map(([a, n]): [string, unknown[]] => ['hardhat_setNonce', [a, `0x${n.toString(16)}`]]),
      },
      { weight: 1, arbitrary: fc.oneof(fc.nat({ max: 100 }), fc.constantFrom(2 ** 31, 2 ** 32, 2 ** 33)).map((t): [string, unknown[]] => ['evm_increaseTime', [t]]) },
      { weight: 1, arbitrary: fc.constant<[string, unknown[]]>(['evm_snapshot', []]) },
      // A revert to the i-th snapshot taken so far in the sequence, resolved when the step runs.
      { weight: 2, arbitrary: fc.tuple(fc.nat({ max: 7 }), fc.boolean()).map(([i, keep]): [string, unknown[]] => ['revert', [i, keep]]) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...METHODS.filter((m) => m !== 'evm_setIntervalMining')), paramsOf(known)).map(([m, p]): [string, unknown[]] => [m, p as unknown[]]) },
    )
    let steps = 0
    let reverts = 0
    let sends = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (sequence) => {
        snapshots.length = 0
        const taken = new Map<string, unknown>()
        try {
          for (const [method, params] of sequence) {
            steps++
            const [i, keep] = method === 'revert' ? (params as [number, boolean]) : [0, false]
            const id = snapshots.length === 0 ? '0x99' : snapshots[i % snapshots.length]!
            const result =
              method !== 'revert'
                ? await devnet.rpcUntyped(method, params).then(
                    (r) => r,
                    (e: unknown) => e,
                  )
                : keep
                  ? await devnet.revert(id, { keep: true })
                  : await devnet.rpc('evm_revert', [id])
            if (result instanceof Error) expect(crashIn(result), `${method} ${show(params)}`).toBeUndefined()
            const { rpc, rest } = await views()
            if (method === 'evm_snapshot' && typeof result === 'string') {
              snapshots.push(result)
              taken.set(result, rpc)
            }
            // A revert that succeeded brings back exactly what both views showed when the snapshot was taken.
            if (method === 'revert' && result === true) {
              reverts++
              expect(rpc, `revert to ${id}`).toEqual(taken.get(id))
            }
            if (method === 'eth_sendTransaction' && typeof result === 'string') sends++
            expect(
              rest,
              `after ${sequence
                .slice(0, sequence.indexOf(sequence.find(([m, p]) => m === method && p === params)!) + 1)
                .map(([m, p]) => `${m} ${show(p)}`)
                .join('; ')}`,
            ).toEqual(rpc)
          }
        } finally {
          await restoreBase('a sequence')
        }
      }),
      { numRuns, seed, endOnFailure: true },
    )
    console.log(`[fuzz] sequences (seed ${seed}): ${numRuns} sequences, ${steps} steps (${sends} transactions sent, ${reverts} reverts checked against their snapshot), both views compared after each`)
  }, 600_000)
})

describe('counterexamples the fuzzer found, fixed at the source', () => {
  it('evm_setIntervalMining beyond the longest Node timer is refused (it used to become a block every millisecond)', async () => {
    const before = fingerprint(devnet)
    const err = await devnet.rpc('evm_setIntervalMining', ['0xfe0a6ba5']).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect((err as RpcError).toJSON()).toEqual({ code: -32000, message: 'mining interval 4262095781 ms is longer than the longest timer, 2147483647 ms (about 24.8 days)' })
    await expect(devnet.setIntervalMining(2 ** 31)).rejects.toThrow('longer than the longest timer')
    expect(fingerprint(devnet)).toBe(before)
  })

  it("a contract creation whose value the sender cannot pay is geth's refusal in eth_call, eth_estimateGas and debug_traceCall (it was a TypeError on the EVM's EVMError object)", async () => {
    const call = { value: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' }
    for (const [method, params] of [
      ['eth_call', [call, 'latest']],
      ['eth_estimateGas', [call]],
      ['debug_traceCall', [call, 'latest']],
    ] as const) {
      const err = await devnet.rpc(method, [...params]).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect((err as RpcError).toJSON(), method).toEqual({ code: -32000, message: 'insufficient funds for transfer' })
      expect(crashIn(err), method).toBeUndefined()
    }
  })
})

describe('fuzz: JSON-RPC envelope and batches', () => {
  /** The dispatch of a devnet over the same chain, with read-only methods only in the generated requests. */
  let ctx: RpcContext
  const READS = METHODS.filter((m) => !CHANGES_STATE.test(m) && !/Filter|subscribe|reset/i.test(m))

  beforeAll(() => {
    // Only read methods are generated, so what they never touch (subscriptions, reset) is left out.
    const reads: Pick<RpcContext, 'chain' | 'signers' | 'accountOrder' | 'chainId' | 'clientVersion' | 'filters' | 'controls' | 'limits'> = {
      chain: chainOf(devnet),
      signers: new Map(),
      accountOrder: [],
      chainId: 12345,
      clientVersion: 'fuzz',
      limits: DEFAULT_RPC_LIMITS,
      filters: new FilterRegistry(),
      controls: new DevnetControls(chainOf(devnet)),
    }
    ctx = reads as RpcContext
  })

  const id = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.constant(undefined), fc.double(), fc.constantFrom(true, {}, [], 1e300))
  const request = fc.record(
    {
      jsonrpc: fc.oneof({ weight: 5, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.constantFrom('1.0', 2, null, '2', '') }),
      id,
      method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...READS) }, { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)) }),
      params: paramsOf([]),
      __proto__: paramValue([]),
    },
    { requiredKeys: [] },
  )
  const item = fc.oneof({ weight: 6, arbitrary: request }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }, { weight: 1, arbitrary: nearMissHex() })
  const body = fc.oneof({ weight: 3, arbitrary: item }, { weight: 2, arbitrary: fc.array(item, { maxLength: 12 }) })

  it('every body: a well-formed answer for each request, none for notifications, nothing changed', async () => {
    const { numRuns, seed } = fuzzSettings(10_000)
    const unhandled = watchUnhandled()
    const before = fingerprint(devnet)
    let cases = 0
    let batches = 0
    const t0 = performance.now()
    try {
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          cases++
          const wire = JSON.parse(JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null') as unknown
          const answer = await within(ANSWER_MS, handleRpcBody(ctx, wire), () => show(wire))
          expect(() => JSON.stringify(answer)).not.toThrow()
          const items = Array.isArray(wire) ? wire : [wire]
          if (Array.isArray(wire)) batches++
          if (Array.isArray(wire) && wire.length === 0) {
            expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
            return
          }
          const expected = items.filter((r) => !isNotification(r)).length
          const responses = answer === undefined ? [] : Array.isArray(answer) ? answer : [answer]
          expect(Array.isArray(answer), show(wire)).toBe(Array.isArray(wire) && expected > 0)
          expect(responses.length, show(wire)).toBe(expected)
          for (const r of responses) {
            expect(r.jsonrpc).toBe('2.0')
            expect(['string', 'number', 'object'].includes(typeof r.id)).toBe(true)
            if ('error' in r) {
              expect(STANDARD_CODES.has(r.error.code), show(r)).toBe(true)
              expect(leaksInternals(r.error.message), r.error.message).toBe(false)
              expect(crashIn((r as { error: unknown }).error), show(wire)).toBeUndefined()
            } else expect('result' in r).toBe(true)
          }
        }),
        { numRuns, seed },
      )
    } finally {
      unhandled.stop()
    }
    console.log(`[fuzz] envelope: ${cases} bodies (${batches} batches) in ${(performance.now() - t0).toFixed(0)} ms (seed ${seed})`)
    expect(unhandled.reasons).toEqual([])
    expect(fingerprint(devnet)).toBe(before)
  }, 600_000)
})

/** A valid request object without an id: answered with nothing (JSON-RPC 2.0 §4.1). */
function isNotification(r: unknown): boolean {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return false
  const o = r as Record<string, unknown>
  return !('id' in o) && o.jsonrpc === '2.0' && typeof o.method === 'string'
}
