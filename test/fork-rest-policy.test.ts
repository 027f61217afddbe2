/**
 * The fork policies of the whole REST route table, applied (rest/context.ts
 * `RestForkPolicy`, rest/forkPolicy.ts): every route the table serves is asked on a
 * fork whose remote REST goes through a proxy that records each path asked, placed at
 * or below the fork block and above it where its policy places requests, and the
 * remote's REST is asked exactly when the policy says: the route's own path in
 * canonical form (and, for a transaction, its get_blk_hgt_by_txhash) for a block or
 * transaction at or below the fork block, nothing for the fork's own blocks and
 * transactions or a local route. On a fork without the remote's REST URL the
 * native-state routes are refused naming what is not forked. A route added to the
 * table without a sample here fails the first test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.ts'
import { toBase58 } from '../src/native/address.ts'
import type { AnyRestRoute, RestForkPolicy } from '../src/rest/context.ts'
import { restRoutes } from '../src/rest/routes/index.ts'
import { FaultProxy } from './fork-support.ts'
import { restEnvelope, restForm, restHistoryRemote, type RestHistoryRemote } from './fork-rest-support.ts'

/** What the samples build their paths from (REST forms). */
interface Env {
  r: RestHistoryRemote
  /** A block the remote mined below the fork block, and its hash. */
  below: number
  belowHash: string
  /** Transactions the remote mined below the fork block. */
  belowTxs: string[]
  /** The block the fork built above the fork block, its hash, and its transaction. */
  above: number
  aboveHash: string
  aboveTx: string
}

/** A GET path, or a POST with its body. */
type Request = string | { path: string; body: unknown }

/** A request of a route the remote never answers, or whose native state the fork's state reads. */
type AtSample = { at: (e: Env) => Request }
/**
 * A route the policy places: `remote` is a request it gives the remote (a block or
 * transaction at or below the fork block; a native contract's storage), `own` one it
 * leaves to the fork (a block or transaction the fork built above the fork block; an
 * EVM contract's storage).
 */
type PlacedSample = { remote: (e: Env) => string; own: (e: Env) => string }

/** A fresh address per sample, Base58: native state read once is kept, and each sample must be a first read. */
const b58 = (n: number): string => toBase58(Buffer.from(`${'00'.repeat(19)}${n.toString(16).padStart(2, '0')}`, 'hex'))
const UNKNOWN = '5a'.repeat(32)
const MAIN_CONTRACT = '0100000000000000000000000000000000000000'
const GOVERNANCE = '0700000000000000000000000000000000000000'

/** One sample per route of the table, by method and template. */
const samples: Record<string, AtSample | PlacedSample> = {
  'GET /api/v1/node/connectioncount': { at: () => '/api/v1/node/connectioncount' },
  'GET /api/v1/block/height': { at: () => '/api/v1/block/height' },
  'GET /api/v1/gasprice': { at: () => '/api/v1/gasprice' },
  'GET /api/v1/mempool/txcount': { at: () => '/api/v1/mempool/txcount' },
  'GET /api/v1/mempool/txstate/:hash': { at: () => `/api/v1/mempool/txstate/${UNKNOWN}` },
  'GET /api/v1/version': { at: () => '/api/v1/version' },
  'GET /api/v1/networkid': { at: () => '/api/v1/networkid' },
  'GET /api/v1/api/v1/node/syncstatus': { at: () => '/api/v1/api/v1/node/syncstatus' },
  'GET /api/v1/node/syncstatus': { at: () => '/api/v1/node/syncstatus' },
  'GET /api/v1': { at: () => '/api/v1' },
  'POST /api/v1/transaction': { at: () => ({ path: '/api/v1/transaction', body: { Action: 'sendrawtransaction', Version: '1.0.0', Data: '' } }) },
  'GET /api/v1/balance/:addr': { at: () => `/api/v1/balance/${b58(1)}` },
  'GET /api/v1/balancev2/:addr': { at: () => `/api/v1/balancev2/${b58(2)}` },
  'GET /api/v1/allowance/:asset/:from/:to': { at: () => `/api/v1/allowance/main/${b58(3)}/${b58(4)}` },
  'GET /api/v1/allowancev2/:asset/:from/:to': { at: () => `/api/v1/allowancev2/gas/${b58(5)}/${b58(6)}` },
  'GET /api/v1/allowancev2': { at: () => `/api/v1/allowancev2?asset=main&from=${b58(7)}&to=${b58(8)}` },
  'GET /api/v1/unboundgas/:addr': { at: () => `/api/v1/unboundgas/${b58(9)}` },
  'GET /api/v1/unboundong/:addr': { at: () => `/api/v1/unboundong/${b58(10)}` },
  'GET /api/v1/grantgas/:addr': { at: () => `/api/v1/grantgas/${b58(11)}` },
  'GET /api/v1/grantong/:addr': { at: () => `/api/v1/grantong/${b58(12)}` },
  'GET /api/v1/contract/:hash': { at: () => `/api/v1/contract/${MAIN_CONTRACT}` },
  'GET /api/v1/block/transactions/height/:height': { remote: (e) => `/api/v1/block/transactions/height/${e.below}`, own: (e) => `/api/v1/block/transactions/height/${e.above}` },
  'GET /api/v1/block/details/height/:height': { remote: (e) => `/api/v1/block/details/height/${e.below}?raw=1`, own: (e) => `/api/v1/block/details/height/${e.above}?raw=1` },
  'GET /api/v1/block/details/hash/:hash': { remote: (e) => `/api/v1/block/details/hash/${e.belowHash}`, own: (e) => `/api/v1/block/details/hash/${e.aboveHash}` },
  'GET /api/v1/block/hash/:height': { remote: (e) => `/api/v1/block/hash/${e.below}`, own: (e) => `/api/v1/block/hash/${e.above}` },
  'GET /api/v1/smartcode/event/transactions/:height': { remote: (e) => `/api/v1/smartcode/event/transactions/${e.below}`, own: (e) => `/api/v1/smartcode/event/transactions/${e.above}` },
  'GET /api/v1/transaction/:hash': { remote: (e) => `/api/v1/transaction/${e.belowTxs[0]}?raw=1`, own: (e) => `/api/v1/transaction/${e.aboveTx}?raw=1` },
  'GET /api/v1/block/height/txhash/:hash': { remote: (e) => `/api/v1/block/height/txhash/${e.belowTxs[1]}`, own: (e) => `/api/v1/block/height/txhash/${e.aboveTx}` },
  'GET /api/v1/smartcode/event/txhash/:hash': { remote: (e) => `/api/v1/smartcode/event/txhash/${e.belowTxs[2]}`, own: (e) => `/api/v1/smartcode/event/txhash/${e.aboveTx}` },
  'GET /api/v1/merkleproof/:hash': { remote: (e) => `/api/v1/merkleproof/${e.belowTxs[0]}`, own: (e) => `/api/v1/merkleproof/${e.aboveTx}` },
  'GET /api/v1/storage/:hash/:key': { remote: () => `/api/v1/storage/${GOVERNANCE}/0102`, own: (e) => `/api/v1/storage/${restForm(e.r.token)}/00` },
}

const table = restRoutes as readonly AnyRestRoute[]
const keyOf = (route: AnyRestRoute): string => `${route.method} ${route.path}`
const policyOf = (route: AnyRestRoute): RestForkPolicy => route.fork as RestForkPolicy
const placed = (policy: RestForkPolicy): boolean => policy.kind === 'block' || policy.kind === 'transaction' || policy.kind === 'nativeStorage'

/** The envelope `devnet` answers to `request`. */
function ask(devnet: Devnet, request: Request) {
  return typeof request === 'string' ? devnet.rest.get(request) : devnet.rest.post(request.path, request.body)
}

const NOT_FORKED = /^fork: .* not forked: the fork has no REST URL of the remote/

describe('the fork policy of every REST route of the table', () => {
  let env: Env
  let proxy: FaultProxy
  let fork: Devnet
  /** The REST paths the fork asked the remote, in order, since last cleared. */
  const asked: string[] = []

  beforeAll(async () => {
    const r = await restHistoryRemote()
    proxy = new FaultProxy(r.restUrl)
    proxy.override = (path) => {
      asked.push(path)
      return undefined
    }
    fork = await createDevnet({ fork: { url: r.url, restUrl: await proxy.listen(), cache: false }, console: false })
    const tx = (await fork.rpc('eth_sendTransaction', [{ from: fork.accounts[0]!.address, to: fork.accounts[1]!.address, value: '0x1' }])) as string
    const above = r.head + 1
    // The token's account (which the storage route reads to tell an EVM contract) is fetched once here: the state's read, not the route's.
    await fork.rpc('eth_getCode', [r.token, 'latest'])
    // Blocks 3 and 5 lie below what the fork read when it started (the fork block down to block 6, the newest with a transaction).
    env = {
      r,
      below: 3,
      belowHash: (await restEnvelope<string>(r.restUrl, '/api/v1/block/hash/3')).Result,
      belowTxs: r.restTxs[5]!,
      above,
      aboveHash: (await fork.rest.get(`/api/v1/block/hash/${above}`)).Result as string,
      aboveTx: restForm(tx),
    }
    expect(env.belowTxs).toHaveLength(3)
  }, 120_000)

  afterAll(async () => {
    await fork?.close()
    await proxy?.close()
    await env?.r.remote.close()
  })

  it('has a sample for every route, of its policy’s shape, and none for a route the table lacks', () => {
    const missing = table.filter((route) => samples[keyOf(route)] === undefined).map(keyOf)
    expect(missing, 'routes without a sample in test/fork-rest-policy.test.ts').toEqual([])
    expect(Object.keys(samples).filter((key) => !table.some((route) => keyOf(route) === key))).toEqual([])
    for (const route of table) expect('remote' in samples[keyOf(route)]!, keyOf(route)).toBe(placed(policyOf(route)))
  })

  it('asks the remote exactly when the policy says, and answers as the remote does when it asks', async () => {
    for (const route of table) {
      const policy = policyOf(route)
      const sample = samples[keyOf(route)]!
      const what = `${keyOf(route)} (${policy.kind})`
      if ('at' in sample) {
        const request = sample.at(env)
        asked.length = 0
        const answer = await ask(fork, request)
        expect(answer.Action, what).toBe(route.action)
        if (policy.kind === 'local') expect(asked, what).toEqual([])
        // Native state: answered (the fork's state fetches what it reads, when it reads any), never refused.
        if (policy.kind === 'nativeState') expect(answer.Error, what).toBe(0)
        if (policy.kind === 'nativeContract') {
          expect(asked.length, what).toBeGreaterThan(0)
          for (const path of asked) expect(path, what).toMatch(/^\/api\/v1\/contract\//)
          expect(answer, what).toEqual(await ask(env.r.remote, request))
        }
        continue
      }
      // Below the fork block: the remote is asked the route's own path (the samples are in canonical form).
      const remote = sample.remote(env)
      asked.length = 0
      const answer = await fork.rest.get(remote)
      expect(answer.Action, what).toBe(route.action)
      const hash = remote.split('/').pop()!.split('?')[0]!
      const allowed = policy.kind === 'transaction' ? [remote, `/api/v1/block/height/txhash/${hash}`] : [remote]
      // Native storage: the remote's storage of the contract (beside the state's fetch of its account).
      if (policy.kind === 'nativeStorage')
        expect(
          asked.filter((p) => p.startsWith('/api/v1/storage/')),
          what,
        ).toEqual([`/api/v1/storage/${toBase58(Buffer.from(GOVERNANCE, 'hex').reverse())}/0102`])
      else {
        expect(asked, what).toContain(remote)
        for (const path of asked) expect(allowed, what).toContain(path)
      }
      expect(answer, what).toEqual(await env.r.remote.rest.get(remote))
      // Above it (the fork's own): the remote is not asked.
      asked.length = 0
      const own = await fork.rest.get(sample.own(env))
      expect(own.Action, what).toBe(route.action)
      expect(own.Error, what).toBe(0)
      expect(asked, what).toEqual([])
    }
  })

  it('on a fork without the remote’s REST URL, refuses the native-state routes naming what is not forked, and only those reads', async () => {
    const plain = await createDevnet({ fork: { url: env.r.url, cache: false }, console: false })
    try {
      for (const route of table) {
        const policy = policyOf(route)
        const sample = samples[keyOf(route)]!
        const answer = await ask(plain, 'at' in sample ? sample.at(env) : sample.remote(env))
        const what = `${keyOf(route)} (${policy.kind})`
        if (policy.kind === 'nativeState') {
          expect(answer.Error, what).toBe(45001)
          expect(answer.Result, what).toBe(
            `fork: ${policy.what} not forked: the fork has no REST URL of the remote (fork.restUrl, --fork-rest-url), so native state is not fetched; the EVM view (eth_getBalance for gas balances) is forked`,
          )
        } else if (policy.kind === 'nativeStorage' || policy.kind === 'nativeContract') {
          expect(answer.Error, what).toBe(45001)
          expect(String(answer.Result), what).toMatch(NOT_FORKED)
        } else expect(String(answer.Result), what).not.toMatch(NOT_FORKED)
      }
    } finally {
      await plain.close()
    }
  })
})
