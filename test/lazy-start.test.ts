/**
 * Lazy start-up (issue 8): what creating a devnet and answering a first request does
 * not load (fastify and the servers until `listen()`, the REST router until the first
 * REST call, BIP-32 for the default keys, no database without the `db` option), and
 * that deferring those keeps `listen()`, `rest` and `close()` behaving as before; and
 * that the bundle `npm run build` writes keeps them behind their dynamic imports.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLED_PACKAGES, bundleOptions, mergeStartPath } from '../scripts/build.ts'
import { createDevnet } from '../src/index.ts'
import { LedgerStore } from '../src/persistence/store.ts'
import { WorldState } from '../src/state/worldState.ts'
import { BlockIndex } from '../src/chain/blockIndex.ts'
import { Clock } from '../src/chain/clock.ts'
import { BlockSettings } from '../src/chain/blockSettings.ts'
import { Mempool } from '../src/chain/mempool.ts'
import type { NativeChainTransaction } from '../src/chain/transaction.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const INDEX = join(ROOT, 'src', 'index.ts')

/**
 * Module URLs loaded by a fresh Node process that imports the package (`entry`: src/
 * through tsx, or a bundle's index.js), creates a devnet with `options` and answers
 * eth_blockNumber; then `after` runs (a statement using `d`) and the URLs loaded by
 * then are reported too.
 */
function loadedModules(options: string, after = '', entry = INDEX): { start: string[]; later: string[] } {
  const hooks = `let port; export function initialize(data) { port = data.port }
    export async function load(url, context, next) { port.postMessage(url); return next(url, context) }`
  const script = `
    import { register } from 'node:module'
    import { MessageChannel } from 'node:worker_threads'
    const { port1, port2 } = new MessageChannel()
    const urls = []
    port1.on('message', (u) => urls.push(u)); port1.unref()
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}), { data: { port: port2 }, transferList: [port2] })
    const settle = () => new Promise((r) => setTimeout(r, 50))
    const { createDevnet } = await import(${JSON.stringify(entry)})
    const d = await createDevnet(${options})
    await d.rpc('eth_blockNumber')
    await settle()
    const start = [...urls]
    ${after}
    await settle()
    await d.close()
    console.log(JSON.stringify({ start, later: urls.slice(start.length) }))`
  const tsx = entry.endsWith('.ts') ? ['--import', 'tsx'] : []
  const child = spawnSync(process.execPath, [...tsx, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 })
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { start: string[]; later: string[] }
}

const loads = (urls: string[], what: RegExp) => urls.some((u) => what.test(u))

/** Statements (for `after`) that start `d`'s servers and make one WebSocket upgrade to its JSON-RPC server, waiting for the 101; with node:http, so that the script loads no `ws` of its own. */
const LISTEN_AND_UPGRADE = `const { rpcUrl } = await d.listen()
const { request } = await import('node:http')
await new Promise((resolve, reject) => {
  const r = request(rpcUrl, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } })
  r.on('upgrade', (response, socket) => { socket.destroy(); response.statusCode === 101 ? resolve() : reject(new Error(String(response.statusCode))) })
  r.on('response', (response) => reject(new Error('no upgrade: ' + response.statusCode)))
  r.on('error', reject)
  r.end()
})`

// Each test starts up to three children, under tsx or on the bundle (120 s limit each): a loaded machine needs more than the default 30 s.
describe('start path', { timeout: 400_000 }, () => {
  it('import + createDevnet() + eth_blockNumber loads no server, REST router, database, BIP-32, BIP-39, WebSocket, tracer, ABI or noble secp256k1 package', () => {
    const { start, later } = loadedModules('', "await d.listen(); await d.rest.get('/api/v1/block/height')")
    const absentAtStart = [
      /node_modules\/fastify\//,
      /node_modules\/@fastify\//,
      /node_modules\/memory-level\//,
      /node_modules\/classic-level\//,
      /node_modules\/@scure\/bip32\//,
      /node_modules\/@scure\/bip39\//,
      /node_modules\/ws\//,
      /node_modules\/micro-eth-signer\//,
      /node_modules\/@noble\/curves\/secp256k1/,
      /src\/server\//,
      /src\/rest\/router\.ts/,
      /src\/evm\/tracing\//,
      /src\/chain\/persistence\/stateDocument\.ts/,
    ]
    for (const absent of absentAtStart) {
      expect(loads(start, absent), String(absent)).toBe(false)
    }
    // …and they do load when used, but ws: only a WebSocket upgrade loads it.
    for (const present of [/node_modules\/fastify\//, /src\/server\/rpcServer\.ts/, /src\/server\/restServer\.ts/, /src\/rest\/router\.ts/]) {
      expect(loads(later, present), String(present)).toBe(true)
    }
    expect(loads(later, /node_modules\/ws\//)).toBe(false)
    // The explorer (issue 37) loads only with listen({ explorer: true }).
    expect(loads(later, /src\/explorer\//)).toBe(false)
    // node:http and node:https are never ES-imported: on Node ≥ 22 that loads undici (src/server/rpcServer.ts); the fork's client takes them on its first request.
    expect([...start, ...later].filter((u) => /^node:https?$/.test(u))).toEqual([])
    expect(loads(loadedModules('', LISTEN_AND_UPGRADE).later, /node_modules\/ws\//)).toBe(true)
  })

  it('explicit accounts and options as a benchmark passes them load no BIP-32 either; another mnemonic does', () => {
    const explicit = loadedModules("{ chainId: 31337, hardfork: 'istanbul', accounts: [{ privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', gas: 10n ** 24n }] }")
    expect(loads(explicit.start, /node_modules\/@scure\/bip32\//)).toBe(false)
    expect(loads(explicit.start, /node_modules\/memory-level\//)).toBe(false)
    const other = loadedModules("{ accounts: 1, mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about' }")
    expect(loads(other.start, /node_modules\/@scure\/bip32\//)).toBe(true)
  })
})

describe('the bundle of npm run build', { timeout: 400_000 }, () => {
  // Inside the repository, so that the bundle's external packages resolve from node_modules.
  const outdir = join(ROOT, '.test-bundles', String(process.pid))
  beforeAll(async () => {
    mkdirSync(outdir, { recursive: true })
    const { metafile } = await build({ ...bundleOptions(outdir), absWorkingDir: ROOT, logLevel: 'silent' })
    await mergeStartPath(outdir, metafile, ROOT)
  }, 120_000)
  afterAll(() => rmSync(outdir, { recursive: true, force: true }))

  it('keeps the lazily loaded modules out of the start path: its start loads the same packages but the bundled ones and no chunk holding a lazy module', () => {
    const { start, later } = loadedModules('', "await d.listen(); await d.rest.get('/api/v1/block/height')", join(outdir, 'index.js'))
    /** The source modules of the bundle's files among `urls`, from their source maps. */
    const bundleSources = (urls: string[]) =>
      urls.filter((u) => u.startsWith('file:') && u.includes('/.test-bundles/')).flatMap((u) => (JSON.parse(readFileSync(`${fileURLToPath(u)}.map`, 'utf8')) as { sources: string[] }).sources)
    const sources = bundleSources(start)
    expect(sources.some((s) => s.endsWith('/src/devnet/create.ts'))).toBe(true)
    // The start path is two files: the entry and the chunk mergeStartPath made of all it imports statically.
    expect(
      start
        .filter((u) => u.includes('/.test-bundles/'))
        .map((u) =>
          u
            .slice(u.indexOf('/.test-bundles/') + 1)
            .split('/')
            .slice(2)
            .join('/'),
        ),
    ).toEqual(['index.js', 'chunks/start.js'])
    for (const lazy of [/src\/server\//, /src\/rest\/router\.ts/, /src\/evm\/tracing\//, /src\/evm\/engine\.ts/, /src\/chain\/persistence\/stateDocument\.ts/]) {
      expect(
        sources.some((s) => lazy.test(s)),
        String(lazy),
      ).toBe(false)
    }
    const packages = (urls: string[]) => [...new Set(urls.map((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter((p) => p !== undefined))].sort()
    // The packages src/ loads at start, but those the bundle carries inside (scripts/build.ts).
    expect(packages(start)).toEqual(packages(loadedModules('').start).filter((p) => !BUNDLED_PACKAGES.includes(p)))
    // The server packages come bundled (scripts/build.ts, SERVER_PACKAGES): listen() reads chunks, not node_modules.
    expect(packages(later).filter((p) => ['fastify', '@fastify/cors', 'ws', 'avvio'].includes(p))).toEqual([])
    const laterSources = bundleSources(later)
    for (const bundled of [/node_modules\/fastify\/fastify\.js$/, /src\/server\/rpcServer\.ts$/]) {
      expect(
        laterSources.some((s) => bundled.test(s)),
        String(bundled),
      ).toBe(true)
    }
    // ws is in a chunk of its own, which the first WebSocket upgrade loads.
    expect(laterSources.some((s) => /node_modules\/ws\//.test(s))).toBe(false)
    const upgraded = loadedModules('', LISTEN_AND_UPGRADE, join(outdir, 'index.js'))
    expect(packages(upgraded.later)).not.toContain('ws')
    expect(bundleSources(upgraded.later).some((s) => /node_modules\/ws\/lib\/websocket-server\.js$/.test(s))).toBe(true)
  })

  it("fills @ethereumjs/util's BigInt table on demand (scripts/build.ts, PACKAGE_PATCHES), with the same values", () => {
    const file = readdirSync(join(outdir, 'chunks')).find((f) => f.endsWith('.js') && readFileSync(join(outdir, 'chunks', f), 'utf8').includes('var BIGINT_CACHE'))
    const text = readFileSync(join(outdir, 'chunks', file!), 'utf8')
    expect(text).toContain('var BIGINT_CACHE = new Array(256 * 256).fill(void 0);')
    expect(text).not.toContain('BIGINT_CACHE[i] = BigInt(i)')
    // One-byte and two-byte values, twice each (filled, then read from the table), and a longer one.
    const script = `
      const { bytesToBigInt } = await import(${JSON.stringify(join(outdir, 'chunks', file!))})
      const values = [[0], [7], [255], [1, 0], [255, 255], [7], [255, 255], [1, 0, 0]].map((b) => bytesToBigInt(Uint8Array.from(b)).toString())
      console.log(JSON.stringify(values))`
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 })
    expect(child.stderr).toBe('')
    expect(JSON.parse(child.stdout)).toEqual(['0', '7', '255', '256', '65535', '7', '65535', '65536'])
  })

  it('runs the curve precompiles with the packages it carries inside as src/ runs them', () => {
    const bundled = precompileAnswers(join(outdir, 'index.js'))
    expect(bundled).toEqual(precompileAnswers(INDEX))
    // (1, 2) is BN254's generator G; G + G = 2G, and a valid P-256 signature verifies to 1.
    expect(bundled['prague 0x06']).toBe(bundled['prague 0x07'])
    expect(bundled['prague 0x08']).toBe(`0x${'0'.repeat(63)}1`)
    expect(bundled['prague 0x0b']).toBe(`0x${'0'.repeat(256)}`)
  })
})

/**
 * What `eth_call`s to the precompiles on elliptic curves (BN254, BLS12-381 from Prague,
 * @noble/curves, which the bundle carries inside; scripts/build.ts)
 * answer on a devnet of the package at `entry` (src/ through tsx, or a bundle's
 * index.js), in a fresh process.
 */
function precompileAnswers(entry: string): Record<string, string> {
  const word = (n: bigint) => n.toString(16).padStart(64, '0')
  const calls: Array<[string, string, string]> = [
    ['prague', '06', word(1n) + word(2n) + word(1n) + word(2n)],
    ['prague', '07', word(1n) + word(2n) + word(2n)],
    ['prague', '08', ''],
    ['prague', '0b', '00'.repeat(256)],
    // Osaka's P-256 precompile (0x100) is not reached: the hardfork option stops at Prague (src/options/hardforks.ts).
  ]
  const script = `
    const { createDevnet } = await import(${JSON.stringify(entry)})
    const answers = {}
    for (const [hardfork, address, data] of ${JSON.stringify(calls)}) {
      const d = await createDevnet({ hardfork, accounts: 1, nativeAccounts: 0 })
      answers[hardfork + ' 0x' + address] = await d.rpc('eth_call', [{ to: '0x' + address.padStart(40, '0'), data: '0x' + data }, 'latest'])
      await d.close()
    }
    console.log(JSON.stringify(answers))`
  const tsx = entry.endsWith('.ts') ? ['--import', 'tsx'] : []
  const child = spawnSync(process.execPath, [...tsx, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 })
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, string>
}

describe('no database without the db option', () => {
  it('a store without a database persists nothing, forgets the touched entries, has the pool record nothing and closes', async () => {
    const world = new WorldState()
    world.setAccount('00'.repeat(20), { nonce: 0n, gas: 1n, main: 0n, codeHash: undefined }, 0)
    expect(world.touches.accounts.size).toBe(1)
    const store = new LedgerStore()
    await store.open()
    const mempool = new Mempool()
    store.bind({ world, fork: undefined, blocks: new BlockIndex(), clock: new Clock(), mempool, settings: new BlockSettings() })
    store.persist()
    expect(world.touches.accounts.size).toBe(0)
    // The pool records no changes for a store without a database.
    mempool.addNative({ hash: new Uint8Array(32) } as NativeChainTransaction)
    expect(mempool.changed).toBe(false)
    await store.close()
  })
})

describe('deferred servers and REST', () => {
  it('concurrent listen() calls start one pair of servers and answer the same URLs', async () => {
    const d = await createDevnet({ accounts: 1, nativeAccounts: 0 })
    const [a, b] = await Promise.all([d.listen(), d.listen()])
    expect(a).toEqual(b)
    expect(await d.listen()).toEqual(a)
    const response = await fetch(a.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' })
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' })
    await d.close()
    await expect(fetch(a.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow()
  })

  it('close() during a listen() that is still loading stops it: listen rejects with 4900 and nothing stays open', async () => {
    const d = await createDevnet({ accounts: 1, nativeAccounts: 0 })
    const listening = d.listen()
    await d.close()
    await expect(listening).rejects.toMatchObject({ code: 4900 })
    await expect(d.listen()).rejects.toMatchObject({ code: 4900 })
  })

  it('a failed listen() (port in use) can be retried', async () => {
    const d = await createDevnet({ accounts: 1, nativeAccounts: 0 })
    const e = await createDevnet({ accounts: 1, nativeAccounts: 0 })
    const { rpcUrl } = await d.listen({ rest: false })
    await expect(e.listen({ rpcPort: Number(new URL(rpcUrl).port), rest: false })).rejects.toMatchObject({ code: 'EADDRINUSE' })
    const urls = await e.listen({ rest: false })
    expect(urls.rpcUrl).not.toBe(rpcUrl)
    await Promise.all([d.close(), e.close()])
  })

  it('the first REST call loads the router and answers as before; a closed devnet refuses', async () => {
    const d = await createDevnet({ accounts: 1, nativeAccounts: 0 })
    const [height, again] = await Promise.all([d.rest.get('/api/v1/block/height'), d.rest.get('/api/v1/block/height')])
    expect(height).toMatchObject({ Action: 'getblockheight', Error: 0, Result: 0 })
    expect(again).toEqual(height)
    await d.close()
    await expect(d.rest.get('/api/v1/block/height')).rejects.toMatchObject({ code: 4900 })
  })
})

describe("the CLI's warm-up", { timeout: 400_000 }, () => {
  const WARM_UP = join(ROOT, 'src', 'cli', 'warmUp.ts')

  it('loads the EVM before the first transaction asks for it', () => {
    const { start, later } = loadedModules('', `await (await import(${JSON.stringify(WARM_UP)})).warmUp(d)`)
    expect(loads(start, /src\/evm\/engine\.ts/)).toBe(false)
    expect(loads(later, /src\/evm\/engine\.ts/)).toBe(true)
  })

  it('changes nothing a client can read: no block, no transaction, the same state', async () => {
    const { warmUp } = await import('../src/cli/warmUp.ts')
    const d = await createDevnet({ accounts: 1 })
    const account = d.accounts[0]!.address
    const read = () =>
      Promise.all([d.rpc('eth_blockNumber'), d.rpc('eth_getTransactionCount', [account, 'latest']), d.rpc('eth_getBalance', [account, 'latest']), d.rpc('eth_getBlockByNumber', ['latest', false])])
    const before = await read()
    await warmUp(d)
    expect(await read()).toEqual(before)
    await d.close()
  })
})
