/**
 * The compact representations behind the ledger's memory use (issue 8, memory): undo
 * steps as flat journal records, immutable versions, storage values held as bigints,
 * kept hashes as views into shared chunks, peaks arrays at their exact length. Each
 * must read back exactly what was written.
 */
import { describe, expect, it } from 'vitest'
import { blockHash, serializeUnsignedHeader, type BlockHeader } from '../src/native/blockHeader.ts'
import { appendLeaf, hashChildren, keepHash, rootFromPeaks, sha256dKept, transactionsRoot } from '../src/native/merkle.ts'
import { Journal } from '../src/state/journal.ts'
import { VersionedMap } from '../src/state/versionedMap.ts'
import { WorldState } from '../src/state/worldState.ts'
import { sha256, sha256d } from '../src/util/hash.ts'
import { concatBytes, toHexRaw } from '../src/util/hex.ts'

const ADDRESS = 'ab'.repeat(20)
const slot = (i: number) => i.toString(16).padStart(64, '0')

/** Deterministic bytes (xorshift), so a failure reproduces. */
function bytes(seed: number, length: number): Uint8Array {
  let x = seed * 2654435761 + 1
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

describe('journal records', () => {
  it('undoes closures and flat records together, newest first', () => {
    const journal = new Journal()
    const order: string[] = []
    const target = { undo: (key: string, payload: unknown) => order.push(`${key}:${String(payload)}`) }
    journal.record(() => order.push('fn1'))
    const position = journal.position
    journal.recordUndo(target, 'a', 1)
    journal.record(() => order.push('fn2'))
    journal.recordUndo(target, 'b', undefined)
    expect(journal.position).toBe(position + 3)
    journal.revertTo(position)
    expect(order).toEqual(['b:undefined', 'fn2', 'a:1'])
    expect(journal.position).toBe(position)
  })

  it('keeps absolute positions across partial and full trims', () => {
    const journal = new Journal()
    const undone: number[] = []
    const target = { undo: (_key: string, payload: unknown) => undone.push(payload as number) }
    for (let i = 0; i < 10; i++) journal.recordUndo(target, 'k', i)
    journal.trimBefore(4)
    expect(journal.position).toBe(10)
    expect(() => journal.revertTo(3)).toThrow(RangeError)
    journal.revertTo(7)
    expect(undone).toEqual([9, 8, 7])
    journal.trimBefore(journal.position)
    expect(journal.position).toBe(7)
    expect(() => journal.revertTo(6)).toThrow(RangeError)
    journal.recordUndo(target, 'k', 42)
    journal.revertTo(7)
    expect(undone).toEqual([9, 8, 7, 42])
  })
})

describe('versioned map with immutable versions', () => {
  it('a same-height rewrite keeps the older versions, and its undo restores the first write', () => {
    const journal = new Journal()
    const touched: string[] = []
    const map = new VersionedMap<number>(journal, (k) => touched.push(k))
    map.set('a', 1, 1)
    map.set('a', 2, 3)
    const position = journal.position
    map.set('a', 3, 3)
    map.set('a', undefined, 3)
    expect([map.get('a', 0), map.get('a', 1), map.get('a', 2), map.get('a', 3), map.getNewest('a')]).toEqual([undefined, 1, 1, undefined, undefined])
    journal.revertTo(position)
    expect([map.get('a', 1), map.get('a', 3), map.getNewest('a')]).toEqual([1, 2, 2])
    journal.revertTo(0)
    expect([map.get('a', 5), map.size]).toEqual([undefined, 0])
    expect(touched).toEqual(['a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'])
  })

  it('matches a model of full histories under random writes, rewrites and reverts', () => {
    const journal = new Journal()
    const map = new VersionedMap<number>(journal)
    // Model: for each key, the list of [height, value] writes; snapshots copy it.
    type Model = Map<string, Array<[number, number | undefined]>>
    let model: Model = new Map()
    const copy = (m: Model): Model => new Map([...m].map(([k, v]) => [k, v.map((w) => [...w] as [number, number | undefined])]))
    const read = (m: Model, key: string, height: number) => {
      let value: number | undefined
      for (const [h, v] of m.get(key) ?? []) if (h <= height) value = v
      return value
    }
    const snapshots: Array<{ position: number; model: Model; height: number }> = []
    let height = 0
    const r = bytes(7, 4000)
    for (let step = 0; step < 1000; step++) {
      const op = r[step * 4]! % 10
      const key = `k${r[step * 4 + 1]! % 6}`
      if (op < 6) {
        const value = r[step * 4 + 2]! % 4 === 0 ? undefined : r[step * 4 + 3]!
        map.set(key, value, height)
        const writes = model.get(key) ?? []
        if (writes.length > 0 && writes[writes.length - 1]![0] === height) writes[writes.length - 1]![1] = value
        else writes.push([height, value])
        model.set(key, writes)
      } else if (op < 8) height++
      else if (op === 8) snapshots.push({ position: journal.position, model: copy(model), height })
      else if (snapshots.length > 0) {
        const snapshot = snapshots.splice(r[step * 4 + 2]! % snapshots.length)[0]!
        journal.revertTo(snapshot.position)
        model = copy(snapshot.model)
        height = snapshot.height
      }
      for (let k = 0; k < 6; k++) {
        for (let h = 0; h <= height; h++) expect(map.get(`k${k}`, h)).toBe(read(model, `k${k}`, h))
      }
    }
  })
})

describe('storage values held as bigints', () => {
  it('read back byte for byte at every height, whatever their length and leading bytes', () => {
    const world = new WorldState()
    const written: Uint8Array[] = []
    for (let i = 0; i < 600; i++) {
      const value = bytes(i, 1 + (i % 40))
      if (i % 5 === 0) value[0] = 0 // leading zero: kept as given
      if (i % 7 === 0) value.fill(0xff)
      if (i % 11 === 0) value.fill(0, 0, value.length - 1) // zeros, then one byte
      written.push(value)
      world.setStorage(ADDRESS, slot(i), value, 1 + (i % 3))
    }
    for (let i = 0; i < 600; i++) {
      const height = 1 + (i % 3)
      expect(toHexRaw(world.getStorage(ADDRESS, slot(i), height))).toBe(toHexRaw(written[i]!))
      expect(world.getStorage(ADDRESS, slot(i), height - 1)).toEqual(new Uint8Array(0))
    }
    const entries = new Map(world.storageEntries(ADDRESS, 3))
    expect(entries.size).toBe(600)
    for (let i = 0; i < 600; i++) expect(toHexRaw(entries.get(slot(i))!)).toBe(toHexRaw(written[i]!))
  })

  it('holds a copy: changing the written or the returned bytes changes nothing', () => {
    const world = new WorldState()
    const value = Uint8Array.of(1, 2, 3)
    world.setStorage(ADDRESS, slot(1), value, 1)
    value[0] = 9
    const read = world.getStorage(ADDRESS, slot(1), 1)
    expect([...read]).toEqual([1, 2, 3])
    read[0] = 7
    expect([...world.getStorage(ADDRESS, slot(1), 1)]).toEqual([1, 2, 3])
  })

  it('clears, reverts and keeps history as before', () => {
    const world = new WorldState()
    world.setStorage(ADDRESS, slot(1), Uint8Array.of(5), 1)
    const position = world.journal.position
    world.setStorage(ADDRESS, slot(1), Uint8Array.of(6), 2)
    world.setStorage(ADDRESS, slot(2), bytes(3, 32), 2)
    world.clearStorage(ADDRESS, 3)
    expect([...world.storageEntries(ADDRESS, 3)]).toEqual([])
    expect([...world.getStorage(ADDRESS, slot(1), 2)]).toEqual([6])
    world.journal.revertTo(position)
    expect([...world.getStorage(ADDRESS, slot(1), 5)]).toEqual([5])
    expect(world.getStorage(ADDRESS, slot(2), 5)).toEqual(new Uint8Array(0))
  })
})

describe('kept hashes and peaks', () => {
  it('keepHash copies into disjoint views of shared chunks', () => {
    const hashes = Array.from({ length: 100 }, (_, i) => sha256(Uint8Array.of(i)))
    const kept = hashes.map((h) => keepHash(h))
    for (let i = 0; i < 100; i++) {
      expect(toHexRaw(kept[i]!)).toBe(toHexRaw(hashes[i]!))
      expect(kept[i]!.length).toBe(32)
    }
    // Views sharing a chunk never overlap.
    for (let i = 1; i < 100; i++) {
      if (kept[i]!.buffer === kept[i - 1]!.buffer) expect(kept[i]!.byteOffset).toBe(kept[i - 1]!.byteOffset + 32)
    }
    // A view reads its bytes through its ArrayBuffer and offset, as DataView readers do.
    const first = kept[0]!
    expect(new DataView(first.buffer, first.byteOffset, 8).getUint8(0)).toBe(hashes[0]![0])
  })

  it('appendLeaf gives exact-length peaks equal to a plain recomputation', () => {
    const leaves = Array.from({ length: 70 }, (_, i) => (i % 3 === 0 ? new Uint8Array(32) : sha256d(Uint8Array.of(i))))
    let peaks: Uint8Array[] = []
    for (let n = 0; n < leaves.length; n++) {
      const before = peaks
      peaks = appendLeaf(peaks, n, leaves[n]!)
      let expected = [...before, leaves[n]!]
      for (let s = n; (s & 1) === 1; s >>>= 1) {
        const right = expected.pop()!
        const left = expected.pop()!
        expected = [...expected, hashChildren(left, right)]
      }
      expect(peaks.map(toHexRaw)).toEqual(expected.map(toHexRaw))
      expect(peaks.length).toBe(popcount(n + 1))
      let root = expected[expected.length - 1]!
      for (let i = expected.length - 2; i >= 0; i--) root = hashChildren(expected[i]!, root)
      expect(toHexRaw(rootFromPeaks(peaks))).toBe(toHexRaw(root))
    }
    expect(() => appendLeaf([], 1, leaves[0]!)).toThrow(RangeError)
  })

  it('TransactionsRoot of 32-byte hashes equals the plain pairwise SHA256d, for every count up to 17', () => {
    for (let n = 2; n <= 17; n++) {
      const hashes = Array.from({ length: n }, (_, i) => sha256(Uint8Array.of(n, i)))
      let level = hashes
      while (level.length > 1) {
        const next: Uint8Array[] = []
        for (let i = 0; i < level.length; i += 2) next.push(sha256d(concatBytes(level[i]!, level[i + 1] ?? level[i]!)))
        level = next
      }
      expect(toHexRaw(transactionsRoot(hashes))).toBe(toHexRaw(level[0]!))
    }
  })

  it('blockHash is SHA256d of serializeUnsignedHeader, whatever the payload length', () => {
    for (const payload of [0, 1, 0xfc, 0xfd, 300, 0xffff, 70_000]) {
      const header: BlockHeader = {
        version: 0,
        prevHash: bytes(payload, 32),
        transactionsRoot: bytes(payload + 1, 32),
        blockRoot: bytes(payload + 2, 32),
        timestamp: 0xfffffffe,
        height: payload,
        consensusData: 0xfedcba9876543210n,
        consensusPayload: bytes(payload + 3, payload),
        nextBookkeeper: bytes(payload + 4, 20),
        bookkeepers: [bytes(payload + 5, 33)],
      }
      const expected = toHexRaw(sha256d(serializeUnsignedHeader(header)))
      expect(toHexRaw(blockHash(header))).toBe(expected)
      expect(toHexRaw(sha256dKept(serializeUnsignedHeader(header)))).toBe(expected)
    }
  })

  it('node hashes of inputs other than 32 bytes are unchanged', () => {
    const a = Uint8Array.of(1, 2, 3)
    const b = bytes(1, 40)
    expect(toHexRaw(hashChildren(a, b))).toBe(toHexRaw(sha256(concatBytes(Uint8Array.of(1), a, b))))
    expect(toHexRaw(transactionsRoot([a, b]))).toBe(toHexRaw(sha256d(concatBytes(a, b))))
    const peaks = appendLeaf([b], 1, a)
    expect(peaks.map(toHexRaw)).toEqual([toHexRaw(hashChildren(b, a))])
    expect(toHexRaw(rootFromPeaks([a, b]))).toBe(toHexRaw(hashChildren(a, b)))
  })
})

function popcount(n: number): number {
  let c = 0
  for (; n > 0; n >>>= 1) c += n & 1
  return c
}
