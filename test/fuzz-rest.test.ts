/**
 * Fuzzing the REST surface by function call (fast-check, fixed seed): every route of
 * the route table (src/rest/routes/index.ts) with generated path segments and query
 * strings, and POST /api/v1/transaction with generated bodies (JSON of any shape,
 * near-miss hex Data, real and mutated EIP-155-wrapped and native transactions).
 *
 * Properties: no crash (an error the router did not expect shows as 45001 with the
 * thrown message as Result; explicit 45001s carry ""), no unhandled rejection, an
 * answer within a bounded time, always the node's envelope (the route's Action, a
 * code of the node with its Desc, Version 1.0.0) or its 404, no internal path in any
 * answer, and the chain unchanged (height, head, pool, every account) after a
 * rejected input; accepted transactions are reverted away.
 *
 * Cases: 400 per GET route (over 10,000 for the table), 10,000 POST bodies;
 * `npm run test:stress` runs 3 times as many (DUALNET_FUZZ_SCALE), `DUALNET_FUZZ_RUNS`
 * sets the cases per target outright, `DUALNET_FUZZ_SEED` the seed (1337).
 */
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Wallet } from 'ethers'
import { createDevnet, RestNotFoundError, type Devnet, type RestEnvelope } from '../src/index.ts'
import { restRoutes } from '../src/rest/routes/index.ts'
import { describe as describeCode } from '../src/rest/errors.ts'
import { eip155Envelope, fingerprint, fuzzSettings, hugeNumbers, leaksInternals, mutatedHex, nearMissHex, paramValue, show, watchUnhandled, within } from './fuzz-support.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk
const ANSWER_MS = 5_000
/** Every code the node's REST surface answers with (reference §1.5). */
const NODE_CODES = new Set([0, 41003, 42001, 42002, 43001, 44001, 44003, 44004, 45001, 47001, -1, 45002, 45003, 45021])

let devnet: Devnet
let base: string
/** The chain as the base snapshot holds it: what every revert must bring back. */
let baseFingerprint: string
/** Real values in REST form (reversed hex hashes, Base58 and reversed-hex addresses, heights), for the segments. */
const known: string[] = []
/** Bodies' Data: an EIP-155-wrapped transaction and a native transfer, both valid at the base state. */
const datas: string[] = []

const reversed = (hex: string) => Buffer.from(hex.replace(/^0x/, ''), 'hex').reverse().toString('hex')

beforeAll(async () => {
  devnet = await createDevnet({ clock: 'frozen', genesisTimestamp: 1_700_000_000, accounts: 2, nativeAccounts: 2 })
  const [a, b] = devnet.accounts as [Devnet['accounts'][number], Devnet['accounts'][number]]
  const hash = await devnet.rpc('eth_sendTransaction', [{ from: a.address, to: b.address, value: '0x1', gasPrice: '0x3b9aca00' }])
  const block = (await devnet.rpc('eth_getBlockByNumber', ['latest', false]))!
  known.push(reversed(hash), reversed(block.hash), a.base58, b.base58, reversed(a.address), devnet.nativeAccounts[0]!.base58, '1', '0', '2')
  known.push('0100000000000000000000000000000000000000', '0200000000000000000000000000000000000000', 'main', 'gas', 'ont', 'ONG')
  // An EIP-155 transaction in the node's envelope (00d3 + var-bytes of the RLP), from b at nonce 0.
  datas.push(eip155Envelope(await new Wallet(b.privateKey).signTransaction({ type: 0, chainId: 12345, nonce: 0, gasPrice: 10n ** 9n, gasLimit: 21_000n, to: a.address, value: 1n })))
  const native = devnet.nativeAccounts[0]!
  const tx = sdk.OntAssetTxBuilder.makeTransferTx('ONG', new sdk.Crypto.Address(native.base58), new sdk.Crypto.Address(devnet.nativeAccounts[1]!.base58), 1, '2500', '20000')
  sdk.TransactionBuilder.signTransaction(tx, new sdk.Crypto.PrivateKey(native.privateKey.slice(2)))
  datas.push(tx.serialize())
  base = await devnet.snapshot()
  baseFingerprint = fingerprint(devnet)
})

afterAll(async () => {
  await devnet?.close()
})

/** A path segment: real values, near-miss hex without 0x, numbers at the edges, words, and characters the router must not take. */
const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined).chain(() => fc.constantFrom(...known)) },
  { weight: 3, arbitrary: nearMissHex().map((h) => h.replace(/^0x/i, '')) },
  { weight: 2, arbitrary: hugeNumbers.map((n) => String(n)) },
  { weight: 1, arbitrary: fc.stringMatching(/^\w{1,50}$/) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '..', '%00', '%2F', '__proto__', 'constructor', 'A'.repeat(34), '1'.repeat(40), '0'.repeat(64), 'f'.repeat(64), '-1', '4294967296', '18446744073709551616'),
  },
)

/** A query string of generated keys (the routes' own among them) and values. */
const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('raw', 'preExec', 'asset', 'from', 'to', '__proto__', 'constructor', 'hasOwnProperty'), fc.string({ maxLength: 6 })),
      fc.oneof(fc.constantFrom('1', '0', 'true', '', '01', ' 1'), segment, fc.string({ maxLength: 10 })),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`))

/** A URL for `template`: each `:name` replaced by a generated segment, and a query string. */
function urlFor(template: string): fc.Arbitrary<string> {
  const names = template.match(/:\w+/g) ?? []
  return fc.tuple(fc.array(segment, { minLength: names.length, maxLength: names.length }), queryString).map(([values, query]) => {
    let i = 0
    return template.replace(/:\w+/g, () => values[i++]!) + query
  })
}

/** Data fields: real transactions, mutated ones, near-miss hex. */
function dataValue(): fc.Arbitrary<unknown> {
  const mutated = mutatedHex(datas)
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined).chain(() => fc.constantFrom(...datas)) },
    { weight: 4, arbitrary: mutated },
    { weight: 2, arbitrary: nearMissHex().map((h) => h.replace(/^0x/, '')) },
    { weight: 1, arbitrary: paramValue([]) },
  )
}

/** A POST body: mostly the node's `{ Action, Version, Data }` with generated fields, else any text. */
function bodyValue(): fc.Arbitrary<string> {
  const envelope = fc.record(
    { Action: fc.oneof(fc.constant('sendrawtransaction'), fc.string({ maxLength: 8 })), Version: fc.oneof(fc.constant('1.0.0'), fc.string({ maxLength: 4 })), Data: dataValue() },
    { requiredKeys: [] },
  )
  const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? ''
  return fc.oneof(
    { weight: 6, arbitrary: envelope.map(json) },
    { weight: 1, arbitrary: paramValue([]).map(json) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '[]', 'null', '{"Data":', '{"__proto__":{"Data":"00"}}', '{"Data":"00d3"}', '{"constructor":{"prototype":{"Data":"00"}}}') },
  )
}

/** The router's reading of a template: each `:name` is one `\w+` segment. */
function templatePattern(template: string): RegExp {
  return new RegExp(`^${template.replace(/:\w+/g, '\\w+')}$`)
}

interface Tally {
  cases: number
  ok: number
  byCode: Map<number, number>
  notFound: number
}

/** One request: checks the properties; throws on a violation. */
async function checkRequest(route: { method: string; action: string; path: string }, url: string, body: string | undefined, tally: Tally, watch: ReturnType<typeof watchUnhandled>): Promise<void> {
  const before = fingerprint(devnet)
  const noticed = watch.count
  tally.cases++
  const what = () => `${route.method} ${url}${body === undefined ? '' : ` ${show(body)}`}`
  let answer: RestEnvelope
  try {
    answer = await within(ANSWER_MS, route.method === 'GET' ? devnet.rest.get(url) : devnet.rest.post(url, body), what)
    expect(watch.reasons.slice(noticed), `${what()} made Node warn`).toEqual([])
  } catch (err) {
    if (!(err instanceof RestNotFoundError)) throw new Error(`${what()} threw ${String(err)}`, { cause: err })
    tally.notFound++
    // 404 only where a segment is not a `\w+` word (the node's router, reference §1.1).
    expect(templatePattern(route.path).test(url.split('?')[0]!), `${what()} answered 404`).toBe(false)
    expect(fingerprint(devnet)).toBe(before)
    return
  }
  tally.byCode.set(answer.Error, (tally.byCode.get(answer.Error) ?? 0) + 1)
  expect(Object.keys(answer), what()).toEqual(['Action', 'Desc', 'Error', 'Result', 'Version'])
  expect(answer.Action, what()).toBe(route.action)
  expect(answer.Version).toBe('1.0.0')
  expect(NODE_CODES.has(answer.Error), `${what()}: code ${answer.Error}`).toBe(true)
  expect(answer.Desc, what()).toBe(describeCode(answer.Error))
  expect(leaksInternals(JSON.stringify(answer)), `${what()} leaks: ${show(answer)}`).toBe(false)
  if (answer.Error === 45001) expect(answer.Result, `${what()}: an unexpected error reached the router`).toBe('')
  if (answer.Error === 0) {
    tally.ok++
    if (route.method === 'POST') await restoreBase(what())
    else expect(fingerprint(devnet), `${what()} changed the chain`).toBe(before)
    return
  }
  expect(fingerprint(devnet), `${what()} was rejected (${answer.Error} ${show(answer.Result)}) but changed the chain`).toBe(before)
}

/**
 * Back to the base state after an accepted state-changing input (a new base id if the
 * fuzzer's own evm_revert consumed it), which must be exactly the base state again.
 */
async function restoreBase(what: string): Promise<void> {
  if (!(await devnet.revert(base, { keep: true }))) base = await devnet.snapshot()
  expect(fingerprint(devnet), `after ${what}, reverting to the base snapshot`).toBe(baseFingerprint)
}

describe('fuzz: REST routes', () => {
  it('every route: path segments and query strings', async () => {
    const { numRuns, seed } = fuzzSettings(400)
    const unhandled = watchUnhandled()
    const total: Tally = { cases: 0, ok: 0, byCode: new Map(), notFound: 0 }
    const t0 = performance.now()
    try {
      for (const route of restRoutes.filter((r) => r.method === 'GET')) {
        await fc.assert(
          fc.asyncProperty(urlFor(route.path), (url) => checkRequest(route, url, undefined, total, unhandled)),
          { numRuns, seed, endOnFailure: true },
        )
      }
    } finally {
      unhandled.stop()
    }
    const codes = [...total.byCode].map(([c, n]) => `${c}:${n}`).join(' ')
    console.log(`[fuzz] REST GET routes × ${numRuns} (seed ${seed}): ${total.cases} cases in ${(performance.now() - t0).toFixed(0)} ms (${total.ok} succeeded, ${total.notFound} 404; codes ${codes})`)
    expect(unhandled.reasons).toEqual([])
    expect(total.cases).toBeGreaterThanOrEqual(10_000)
  }, 600_000)

  it('POST /api/v1/transaction: bodies and query strings', async () => {
    const { numRuns, seed } = fuzzSettings(10_000)
    const route = restRoutes.find((r) => r.method === 'POST')!
    const unhandled = watchUnhandled()
    const total: Tally = { cases: 0, ok: 0, byCode: new Map(), notFound: 0 }
    const t0 = performance.now()
    try {
      await fc.assert(
        fc.asyncProperty(queryString, bodyValue(), (query, body) => checkRequest(route, `${route.path}${query}`, body, total, unhandled)),
        { numRuns, seed, endOnFailure: true },
      )
    } finally {
      unhandled.stop()
    }
    const codes = [...total.byCode].map(([c, n]) => `${c}:${n}`).join(' ')
    console.log(`[fuzz] REST POST bodies (seed ${seed}): ${total.cases} cases in ${(performance.now() - t0).toFixed(0)} ms (${total.ok} succeeded; codes ${codes})`)
    expect(unhandled.reasons).toEqual([])
    expect(await devnet.rest.get('/api/v1/block/height')).toMatchObject({ Error: 0, Result: 1 })
  }, 600_000)
})
