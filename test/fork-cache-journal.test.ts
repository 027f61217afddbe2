/**
 * The disk cache appends (fork/cache.ts, docs/fork.md "The disk cache"): each fetch adds
 * a journal line of what it brought, so the bytes written per new value do not grow with
 * the values fetched before it (issue 35: the file was rewritten whole after each fetch);
 * a file left with a journal (a process killed before closing), even one whose last line
 * is cut short, gives every value back; closing folds the journal into one JSON document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDevnet, type Devnet } from '../src/index.ts'
import { attachForkCache } from '../src/fork/cache.ts'
import { RemoteHistory } from '../src/fork/history.ts'
import { retryOnForkMiss } from '../src/fork/miss.ts'
import { RemoteNode } from '../src/fork/remote.ts'
import { ForkSource } from '../src/fork/source.ts'
import { FaultProxy } from './fork-support.ts'

const HOLDER = '00000000000000000000000000000000c0ffee51'
const UNKNOWN = `0x${'77'.repeat(32)}`
const slot = (i: number) => i.toString(16).padStart(64, '0')

let remote: Devnet
let proxy: FaultProxy
let url: string
let dir: string
let meta: { url: string; restUrl: null; chainId: number; blockNumber: number; blockHash: string }

beforeAll(async () => {
  remote = await createDevnet({ chainId: 4248, console: false })
  await remote.mine(1)
  proxy = new FaultProxy((await remote.listen()).rpcUrl)
  url = await proxy.listen()
  dir = mkdtempSync(join(tmpdir(), 'dualnet-fork-journal-'))
  const block = (await remote.rpc('eth_getBlockByNumber', ['0x1', false])) as { hash: string }
  meta = { url, restUrl: null, chainId: 4248, blockNumber: 1, blockHash: block.hash }
}, 120_000)

afterAll(async () => {
  await proxy?.close()
  await remote?.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

/** A fork source of the remote at block 1 with its history, bound to the cache file. */
async function bound(file: string) {
  const node = new RemoteNode(url, { retries: 0, timeout: 5_000 })
  const source = new ForkSource(node, 1)
  source.history = new RemoteHistory(node, 1)
  const writer = await attachForkCache(source, file, meta)
  return { source, writer }
}

describe('the disk cache journal', () => {
  it('appends the same bytes for the 60th new slot as for the 2nd, and a killed run’s journal, cut short or not, gives every value back', async () => {
    const file = join(dir, 'fork.json')
    const { source, writer } = await bound(file)
    await source.loadStorage(HOLDER, slot(0))
    await writer.flush()
    const growth: number[] = []
    for (let i = 1; i <= 60; i++) {
      const before = statSync(file).size
      await source.loadStorage(HOLDER, slot(i))
      await writer.flush()
      growth.push(statSync(file).size - before)
    }
    expect(Math.max(...growth.slice(-10))).toBeLessThanOrEqual(Math.min(...growth.slice(0, 10)))
    expect(Math.max(...growth)).toBeLessThan(300)
    // A history answer is journaled too.
    await retryOnForkMiss(() => source.history!.answer('eth_getTransactionByHash', [UNKNOWN]))
    await writer.flush()
    // Killed here: no close. A last line cut short is ignored.
    appendFileSync(file, '\n["v","storage","00')
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines.length).toBeGreaterThan(60)

    const requests = proxy.requests
    const later = await bound(file)
    for (let i = 0; i <= 60; i++) expect(later.source.storage(HOLDER, slot(i))).toEqual(new Uint8Array(0))
    expect(later.source.history!.answer('eth_getTransactionByHash', [UNKNOWN])).toBeNull()
    expect(proxy.requests).toBe(requests)
    // Closing folds the journal in: one JSON document, as a dualnet before the journal wrote it.
    await later.source.onClose?.()
    const document = JSON.parse(readFileSync(file, 'utf8')) as { version: number; values: { storage: Record<string, string> }; history: unknown[] }
    expect(document.version).toBe(1)
    expect(Object.keys(document.values.storage)).toHaveLength(61)
    expect(document.history.length).toBeGreaterThanOrEqual(1)
  })
})
