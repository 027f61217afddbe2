/**
 * The long suites' measuring process, run by test/stress/lifecycle.test.ts as
 * `node --expose-gc --import tsx test/stress/lifecycle-child.ts <mode> <count>`, so that
 * heap figures are taken after a real garbage collection and in a process of their own.
 * Prints one JSON line of figures on stdout. Not a test file itself.
 *
 * - `devnets <n>`: creates and closes n devnets (every other one listening, each
 *   answering JSON-RPC and REST, the listening ones over HTTP), after 20 for warm-up;
 *   reports heap before and after and the active handles before and after.
 * - `blocks <n>`: one automining devnet mines n blocks of one transfer each; reports
 *   the heap at every quarter.
 */
import http from 'node:http'
import { createDevnet } from '../../src/index.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc')
const MiB = 1024 * 1024

/** Heap in use after two full collections, with a turn of the event loop between them. */
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 2; i++) {
    gc!()
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return process.memoryUsage().heapUsed
}

/**
 * One HTTP request on a connection of its own (node:http without an agent): fetch's
 * dispatcher keeps a pool per origin, about 25 KB for each of a thousand ports, which
 * would be counted against the devnet.
 */
function httpJson(url: string, body?: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: body === undefined ? 'GET' : 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
    })
    request.on('error', reject)
    request.end(body)
  })
}

async function cycle(i: number): Promise<void> {
  const devnet = await createDevnet({ accounts: 2, nativeAccounts: 1 })
  if (i % 2 === 0) {
    const { rpcUrl, restUrl } = await devnet.listen()
    const rpc = await httpJson(rpcUrl, '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}')
    if ((rpc as { result: string }).result !== '0x0') throw new Error('bad answer over HTTP')
    const rest = await httpJson(`${restUrl!}/api/v1/block/height`)
    if ((rest as { Result: number }).Result !== 0) throw new Error('bad REST answer over HTTP')
  }
  if ((await devnet.rpc('eth_blockNumber')) !== '0x0') throw new Error('bad answer')
  if ((await devnet.rest.get('/api/v1/block/height')).Result !== 0) throw new Error('bad REST answer')
  await devnet.close()
}

async function devnets(count: number) {
  for (let i = 0; i < 20; i++) await cycle(i)
  // Let the warm-up's closed sockets leave libuv's list.
  await new Promise((resolve) => setTimeout(resolve, 200))
  const heapBefore = await settledHeap()
  const handlesBefore = process.getActiveResourcesInfo()
  const t0 = performance.now()
  for (let i = 0; i < count; i++) await cycle(i)
  const ms = performance.now() - t0
  await new Promise((resolve) => setTimeout(resolve, 200))
  const heapAfter = await settledHeap()
  const handlesAfter = process.getActiveResourcesInfo()
  return {
    mode: 'devnets',
    count,
    ms: Math.round(ms),
    heapBeforeMiB: +(heapBefore / MiB).toFixed(2),
    heapAfterMiB: +(heapAfter / MiB).toFixed(2),
    heapGrowthMiB: +((heapAfter - heapBefore) / MiB).toFixed(2),
    handlesBefore,
    handlesAfter,
  }
}

async function blocks(count: number) {
  const devnet = await createDevnet({ accounts: 4, nativeAccounts: 0, clock: { step: 1 }, genesisTimestamp: 1_700_000_000 })
  const [a, b] = devnet.accounts
  const heapStart = await settledHeap()
  const samples: { blocks: number; heapMiB: number; rssMiB: number }[] = []
  const t0 = performance.now()
  for (let i = 1; i <= count; i++) {
    await devnet.rpc('eth_sendTransaction', [{ from: a!.address, to: b!.address, value: '0x1', gasPrice: '0x3b9aca00' }])
    if (i % (count / 4) === 0) samples.push({ blocks: i, heapMiB: +((await settledHeap()) / MiB).toFixed(2), rssMiB: +(process.memoryUsage().rss / MiB).toFixed(1) })
  }
  const ms = performance.now() - t0
  if ((await devnet.rpc('eth_blockNumber')) !== `0x${count.toString(16)}`) throw new Error('not every block was mined')
  await devnet.close()
  return { mode: 'blocks', count, ms: Math.round(ms), heapStartMiB: +(heapStart / MiB).toFixed(2), samples }
}

const [mode, countText] = process.argv.slice(2)
const count = Number(countText)
const figures = mode === 'devnets' ? await devnets(count) : mode === 'blocks' ? await blocks(count) : undefined
if (figures === undefined) throw new Error(`unknown mode ${mode}`)
process.stdout.write(`${JSON.stringify(figures)}\n`)
