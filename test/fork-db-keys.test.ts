/**
 * A fork in a database keeps one key per fetched value and per history answer
 * (persistence/forkStore.ts, docs/persistence.md): a fetch writes what it brought, so the
 * bytes written per new fetch do not grow with the values fetched before it (issue 35,
 * item 6: they were rewritten whole after each fetch); a resumed fork reads them back
 * without the remote; a database of version 2 (three blobs) opens and is moved to the
 * per-value keys; and the history answers sit in a bounded cache, in memory and on disk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryLevel } from 'memory-level'
import { createDevnet, type Devnet } from '../src/index.ts'
import type { LevelBatchOperation, LevelDatabase, LevelRange } from '../src/persistence/database.ts'
import { FORK_HISTORY_KEY, FORK_REST_HISTORY_KEY, FORK_VALUES_KEY } from '../src/persistence/schema.ts'
import { ForkWriter } from '../src/persistence/forkStore.ts'
import { AnswerCache } from '../src/fork/answerCache.ts'
import { RemoteHistory } from '../src/fork/history.ts'
import { RemoteNode } from '../src/fork/remote.ts'
import { ForkSource } from '../src/fork/source.ts'
import { retryOnForkMiss } from '../src/fork/miss.ts'
import { FaultProxy } from './fork-support.ts'

const HOLDER = '0x00000000000000000000000000000000c0ffee41'

/** A memory-level database that says it is durable (so each fetch is written at once) and counts the bytes of each batch. */
class CountingLevel implements LevelDatabase {
  readonly inner = new MemoryLevel<string, string>()
  readonly supports = { permanence: true }
  /** Bytes (keys and values) of each batch written, in order. */
  readonly batches: number[] = []
  get status() {
    return this.inner.status
  }
  open() {
    return this.inner.open()
  }
  close() {
    return this.inner.close()
  }
  get(key: string) {
    return this.inner.get(key)
  }
  getMany(keys: string[]) {
    return this.inner.getMany(keys)
  }
  batch(operations: LevelBatchOperation[]) {
    this.batches.push(operations.reduce((n, op) => n + op.key.length + (op.type === 'put' ? op.value.length : 0), 0))
    return this.inner.batch(operations)
  }
  iterator(range?: LevelRange) {
    return this.inner.iterator(range ?? {})
  }
  keys(range?: LevelRange) {
    return this.inner.keys(range ?? {})
  }
  values(range?: LevelRange) {
    return this.inner.values(range ?? {})
  }
  /** Every entry, read with the database closed again after. */
  async entries(): Promise<[string, string][]> {
    await this.inner.open()
    const all = await this.inner.iterator().all()
    await this.inner.close()
    return all
  }
}

let remote: Devnet
let proxy: FaultProxy
let proxyUrl: string
let forkBlock: number

beforeAll(async () => {
  remote = await createDevnet({ chainId: 4247, console: false })
  await remote.setBalance(HOLDER, { gas: 7n * 10n ** 18n })
  await remote.mine(2)
  forkBlock = Number(await remote.rpc('eth_blockNumber'))
  proxy = new FaultProxy((await remote.listen()).rpcUrl)
  proxyUrl = await proxy.listen()
}, 120_000)

afterAll(async () => {
  await proxy?.close()
  await remote?.close()
})

const forkOf = (db: LevelDatabase) => createDevnet({ fork: { url: proxyUrl, blockNumber: forkBlock, cache: false, remote: { retries: 0, timeout: 5_000 } }, db, accounts: 1, console: false })
const slot = (i: number) => `0x${i.toString(16).padStart(64, '0')}`
const unknownHash = (i: number) => `0x${(0xabc00000 + i).toString(16).padStart(64, '0')}`

/** The reads of the resume and migration tests, and their answers. */
async function reads(fork: Devnet): Promise<unknown[]> {
  const out: unknown[] = [await fork.rpc('eth_getBalance', [HOLDER, 'latest'])]
  for (let i = 0; i < 5; i++) out.push(await fork.rpc('eth_getStorageAt', [HOLDER, slot(i), 'latest']))
  out.push(await fork.rpc('eth_getBlockByNumber', ['0x1', false]))
  out.push(await fork.rpc('eth_getTransactionByHash', [unknownHash(0)]))
  return out
}

describe('bytes written per fetch', () => {
  it('a new storage slot or history answer writes the same bytes whether 10 or 60 were fetched before it', async () => {
    const db = new CountingLevel()
    const fork = await forkOf(db)
    try {
      const perRead = async (read: () => Promise<unknown>): Promise<number> => {
        const before = db.batches.length
        await read()
        const written = db.batches.slice(before)
        // A durable database writes a fetch before its answer goes out: one batch each.
        expect(written).toHaveLength(1)
        return written[0]!
      }
      const slots: number[] = []
      for (let i = 0; i < 70; i++) slots.push(await perRead(() => fork.rpc('eth_getStorageAt', [HOLDER, slot(i), 'latest'])))
      expect(Math.max(...slots.slice(60))).toBeLessThanOrEqual(Math.min(...slots.slice(0, 10)))
      // A key and a 32-byte value, not every value fetched so far.
      expect(Math.max(...slots)).toBeLessThan(300)
      const lookups: number[] = []
      for (let i = 0; i < 70; i++) lookups.push(await perRead(() => fork.rpc('eth_getTransactionByHash', [unknownHash(i)])))
      expect(Math.max(...lookups.slice(60))).toBeLessThanOrEqual(Math.min(...lookups.slice(0, 10)))
      expect(Math.max(...lookups)).toBeLessThan(300)
      // A value read again is not written again.
      const before = db.batches.length
      await fork.rpc('eth_getStorageAt', [HOLDER, slot(3), 'latest'])
      expect(db.batches.length).toBe(before)
    } finally {
      await fork.close()
    }
  })
})

describe('resume and migration', () => {
  const db = new CountingLevel()
  let answers: unknown[]

  it('a resumed fork reads the per-value keys back and answers without the remote', async () => {
    const first = await forkOf(db)
    answers = await reads(first)
    await first.close()
    const keys = (await db.entries()).map(([k]) => k)
    expect(keys).toContain('m:schema')
    expect(keys.filter((k) => k.startsWith('f:s:'))).toHaveLength(5)
    expect(keys.filter((k) => k.startsWith('f:h:')).length).toBeGreaterThanOrEqual(2)
    expect(keys).not.toContain(FORK_VALUES_KEY)
    expect((await db.entries()).find(([k]) => k === 'm:schema')![1]).toBe('3')
    proxy.mode = 'down'
    const requests = proxy.requests
    try {
      const second = await forkOf(db)
      try {
        expect(await reads(second)).toEqual(answers)
        expect(proxy.requests).toBe(requests)
      } finally {
        await second.close()
      }
    } finally {
      proxy.mode = 'forward'
    }
  })

  it('a version-2 database (the values in three blobs) opens without the remote, and its first batch moves them to a key each', async () => {
    // Rewrite the database as version 2 wrote it: every value in f:values, the history in f:history.
    const entries = await db.entries()
    const values: { accounts: Record<string, unknown>; code: Record<string, unknown>; storage: Record<string, unknown> } = { accounts: {}, code: {}, storage: {} }
    const history: unknown[] = []
    const tables: Record<string, Record<string, unknown>> = { 'f:a:': values.accounts, 'f:c:': values.code, 'f:s:': values.storage }
    await db.inner.open()
    const ops: LevelBatchOperation[] = []
    for (const [key, value] of entries) {
      const table = tables[key.slice(0, 4)]
      if (table !== undefined) table[key.slice(4)] = JSON.parse(value)
      else if (key.startsWith('f:h:')) history.push(JSON.parse(value))
      else if (key.startsWith('f:')) throw new Error(`unexpected key ${key}`)
      else continue
      ops.push({ type: 'del', key })
    }
    ops.push({ type: 'put', key: FORK_VALUES_KEY, value: JSON.stringify(values) }, { type: 'put', key: FORK_HISTORY_KEY, value: JSON.stringify(history) }, { type: 'put', key: 'm:schema', value: '2' })
    await db.inner.batch(ops)
    await db.inner.close()
    expect(Object.keys(values.storage)).toHaveLength(5)

    proxy.mode = 'down'
    const requests = proxy.requests
    try {
      const old = await forkOf(db)
      try {
        expect(await reads(old)).toEqual(answers)
        expect(proxy.requests).toBe(requests)
      } finally {
        await old.close()
      }
      const migrated = await db.entries()
      const keys = migrated.map(([k]) => k)
      expect(migrated.find(([k]) => k === 'm:schema')![1]).toBe('3')
      expect(keys).not.toContain(FORK_VALUES_KEY)
      expect(keys).not.toContain(FORK_HISTORY_KEY)
      expect(keys).not.toContain(FORK_REST_HISTORY_KEY)
      expect(keys.filter((k) => k.startsWith('f:s:'))).toHaveLength(5)
      expect(keys.filter((k) => k.startsWith('f:h:'))).toHaveLength(history.length)
      // And it resumes from the keys as any version-3 database.
      const again = await forkOf(db)
      try {
        expect(await reads(again)).toEqual(answers)
        expect(proxy.requests).toBe(requests)
      } finally {
        await again.close()
      }
    } finally {
      proxy.mode = 'forward'
    }
  })
})

describe('the bounded history cache', () => {
  it('drops the least recently used answers past its bound in bytes, never one fetched for a read that has not read it', () => {
    const cache = new AnswerCache<string>(100)
    const told: string[] = []
    cache.watch((key) => told.push(key))
    cache.set('a', 'A', 40)
    cache.set('b', 'B', 40)
    expect(cache.read(['a'])).toEqual(['A'])
    cache.set('c', 'C', 40)
    // b was the least recently used: a was read after it.
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true])
    expect(cache.bytes).toBe(80)
    expect(told).toEqual(['a', 'b', 'c', 'b'])
    // Pinned answers stay past the bound until read (or unpinned), then go first.
    cache.set('big1', 'X', 90, true)
    cache.set('big2', 'Y', 90, true)
    expect([cache.has('a'), cache.has('c'), cache.has('big1'), cache.has('big2')]).toEqual([false, false, true, true])
    expect(cache.read(['big1', 'big2'])).toEqual(['X', 'Y'])
    cache.set('d', 'D', 10)
    expect([...cache.entries()].map(([k]) => k)).toEqual(['big2', 'd'])
    expect(cache.bytes).toBe(100)
    expect(cache.read(['d', 'gone'])).toBeUndefined()
    cache.set('e', 'E', 200, true)
    cache.unpin(['e'])
    expect(cache.has('e')).toBe(false)
  })

  it('a read needing more than the bound completes with one fetch of each answer, and the database deletes what the cache drops', async () => {
    const node = new RemoteNode(proxyUrl, { retries: 0, timeout: 5_000 })
    const source = new ForkSource(node, forkBlock)
    source.history = new RemoteHistory(node, forkBlock)
    const history = source.history
    // Smaller than one block object: every insert drops what is not pinned.
    history.cache.limit = 100
    const writer = new ForkWriter()
    writer.attach(source, false, () => {})
    const calls = [0, 1, 2].map((n) => ({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] }))
    const before = proxy.calls.length
    const blocks = (await retryOnForkMiss(() => history.answers(calls))) as { number: string }[]
    expect(blocks.map((b) => b.number)).toEqual(['0x0', '0x1', '0x2'])
    expect(proxy.calls.length - before).toBe(3)
    expect(writer.ops().filter((op) => op.type === 'put')).toHaveLength(3)
    // Read, they are no longer pinned: the next answer drops them, and the database deletes them.
    await retryOnForkMiss(() => history.answer('eth_getBlockByNumber', ['0x1', true]))
    expect(history.cache.size).toBe(1)
    const ops = writer.ops()
    expect(ops.filter((op) => op.type === 'del')).toHaveLength(3)
    expect(ops.filter((op) => op.type === 'put')).toHaveLength(1)
    // A dropped answer is fetched again when asked.
    const again = proxy.calls.length
    expect(((await retryOnForkMiss(() => history.answer('eth_getBlockByNumber', ['0x1', false]))) as { number: string }).number).toBe('0x1')
    expect(proxy.calls.length - again).toBe(1)
  })
})
