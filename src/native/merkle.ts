/**
 * The two Merkle trees of a block header (reference §5.2, §5.3).
 *
 * TransactionsRoot: Bitcoin-style over raw tx hashes, SHA256d of each pair, an odd
 * last node paired with itself; one tx gives its hash, none gives 32 zero bytes.
 *
 * BlockRoot: a compact (RFC 6962) tree whose leaves are the TransactionsRoots of
 * blocks 0..h used directly as leaf hashes, with internal nodes SHA256(0x01 ‖ L ‖ R).
 * We keep the "peaks" (roots of the perfect subtrees of the binary decomposition of
 * the leaf count) after every block, so appending is O(log n) and reverting a block
 * is dropping its peaks.
 *
 * Memory: a chain holds a few 32-byte hashes per block for its whole life (block hash,
 * BlockRoot, the peak a block adds). A hash of its own costs a typed array, an
 * ArrayBuffer and a malloc'd backing store (about 400 bytes of RSS for 32 bytes of
 * data); the hashes this module returns for keeping are views into shared 1 KiB
 * chunks instead ({@link keepHash}, about 140 bytes each). Peaks arrays are built at
 * their exact length: every block holds its own. Intermediate digests (the BlockRoot
 * fold over the peaks, merged peaks, TransactionsRoot levels, the inner SHA-256 of a
 * SHA256d) never become ArrayBuffers: Node's one-shot `hash` returns them as 32-char
 * latin1 strings, written back into scratch inputs; that is also 3x faster than a
 * Buffer per digest, and keeps block building from churning malloc.
 */
import { hash } from 'node:crypto'

const ZERO_HASH = new Uint8Array(32)

/** Hashes per arena chunk: small, so that a chunk dies soon after the blocks whose hashes it holds. */
const CHUNK_HASHES = 32
let chunk = Buffer.alloc(32 * CHUNK_HASHES)
let chunkUsed = chunk.length

/** Room for one more hash in the current chunk: its offset. */
function claim(): number {
  if (chunkUsed === chunk.length) {
    chunk = Buffer.alloc(32 * CHUNK_HASHES)
    chunkUsed = 0
  }
  const start = chunkUsed
  chunkUsed = start + 32
  return start
}

/** A plain Uint8Array view of `length` bytes of the current chunk from `start` (not a Buffer: callers see the type they always got). */
function view(start: number): Uint8Array {
  return new Uint8Array(chunk.buffer, chunk.byteOffset + start, 32)
}

/**
 * A copy of the 32-byte `hash` as a view into a shared chunk (the chunk's ArrayBuffer,
 * with `byteOffset`), for hashes that a block keeps. Views are never written after
 * this copy. Other lengths get a copy of their own.
 */
export function keepHash(hash: Uint8Array): Uint8Array {
  if (hash.length !== 32) return hash.slice()
  const start = claim()
  chunk.set(hash, start)
  return view(start)
}

/** A 32-byte digest given as a latin1 string, kept as {@link keepHash} keeps bytes. */
function keepLatin1(digest: string): Uint8Array {
  const start = claim()
  chunk.write(digest, start, 32, 'latin1')
  return view(start)
}

/** Scratch inputs: 0x01 ‖ left ‖ right for compact-tree nodes, left ‖ right (its tail) for TransactionsRoot pairs, one digest for SHA256d. */
const NODE_INPUT = Buffer.alloc(65)
NODE_INPUT[0] = 1
const PAIR_INPUT = NODE_INPUT.subarray(1)
const DIGEST_INPUT = Buffer.alloc(32)

/** SHA-256 of `data` as a latin1 string of its 32 bytes ('binary' is Node's name for latin1). */
function sha256Latin1(data: Uint8Array): string {
  return hash('sha256', data, 'binary')
}

/** SHA256(SHA256(data)) as a latin1 string. */
function sha256dLatin1(data: Uint8Array): string {
  DIGEST_INPUT.write(sha256Latin1(data), 0, 32, 'latin1')
  return sha256Latin1(DIGEST_INPUT)
}

/** SHA256(SHA256(data)) as a hash to keep (a view into a shared chunk): block hashes. */
export function sha256dKept(data: Uint8Array): Uint8Array {
  return keepLatin1(sha256dLatin1(data))
}

/** Writes a 32-byte hash given as bytes or as a latin1 string into `target` at `offset`. */
function put(target: Buffer, value: Uint8Array | string, offset: number): void {
  if (typeof value === 'string') target.write(value, offset, 32, 'latin1')
  else target.set(value, offset)
}

const is32 = (h: Uint8Array) => h.length === 32

/** TransactionsRoot of raw-order tx hashes (reference §5.2). */
export function transactionsRoot(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return ZERO_HASH
  if (hashes.length === 1) return hashes[0]!
  if (!hashes.every(is32)) return keepHash(transactionsRootOf(hashes))
  let level: ReadonlyArray<Uint8Array | string> = hashes
  while (level.length > 1) {
    const next: string[] = []
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!
      put(PAIR_INPUT, left, 0)
      put(PAIR_INPUT, level[i + 1] ?? left, 32)
      next.push(sha256dLatin1(PAIR_INPUT))
    }
    level = next
  }
  return keepLatin1(level[0] as string)
}

/** TransactionsRoot over hashes of any length (not a chain's: its tx hashes are 32 bytes). */
function transactionsRootOf(hashes: readonly Uint8Array[]): Uint8Array {
  let level = hashes
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!
      const right = level[i + 1] ?? left
      const input = new Uint8Array(left.length + right.length)
      input.set(left)
      input.set(right, left.length)
      next.push(Buffer.from(sha256dLatin1(input), 'latin1'))
    }
    level = next
  }
  return level[0]!
}

/** Internal node of the compact tree: SHA256(0x01 ‖ left ‖ right), a fresh array. */
export function hashChildren(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length)
  input[0] = 1
  input.set(left, 1)
  input.set(right, 1 + left.length)
  const digest = hash('sha256', input, 'buffer')
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength)
}

/**
 * The fold SHA256(0x01 ‖ parts[first] ‖ SHA256(0x01 ‖ … ‖ SHA256(0x01 ‖ parts[last - 1] ‖ tail))),
 * for 32-byte parts and tail, as a latin1 string (no ArrayBuffer per level).
 */
function foldNodes(parts: readonly Uint8Array[], first: number, last: number, tail: Uint8Array): string {
  NODE_INPUT.set(parts[last - 1]!, 1)
  NODE_INPUT.set(tail, 33)
  let node = sha256Latin1(NODE_INPUT)
  for (let i = last - 2; i >= first; i--) {
    NODE_INPUT.set(parts[i]!, 1)
    NODE_INPUT.write(node, 33, 32, 'latin1')
    node = sha256Latin1(NODE_INPUT)
  }
  return node
}

/**
 * Peaks after appending `leaf` to a tree of `size` leaves with peaks `peaks`
 * (largest subtree first). Returns a new array of exactly the peaks' length (the
 * caller keeps it); the input is not changed. `leaf` itself is kept by reference.
 */
export function appendLeaf(peaks: readonly Uint8Array[], size: number, leaf: Uint8Array): Uint8Array[] {
  // Each trailing 1-bit of `size` is a perfect subtree the new leaf completes.
  let merges = 0
  for (let s = size; (s & 1) === 1; s >>>= 1) merges++
  const keep = peaks.length - merges
  if (keep < 0) throw new RangeError(`${peaks.length} peaks cannot describe a tree of ${size} leaves`)
  const next = new Array<Uint8Array>(keep + 1)
  for (let i = 0; i < keep; i++) next[i] = peaks[i]!
  if (merges === 0) next[keep] = leaf
  else if (is32(leaf) && peaks.every(is32)) next[keep] = keepLatin1(foldNodes(peaks, keep, peaks.length, leaf))
  else {
    let node = leaf
    for (let i = peaks.length - 1; i >= keep; i--) node = hashChildren(peaks[i]!, node)
    next[keep] = keepHash(node)
  }
  return next
}

/** Root of the compact tree from its peaks (RFC 6962 split at the largest power of two). */
export function rootFromPeaks(peaks: readonly Uint8Array[]): Uint8Array {
  if (peaks.length === 0) return ZERO_HASH
  if (peaks.length === 1) return peaks[0]!
  if (peaks.every(is32)) return keepLatin1(foldNodes(peaks, 0, peaks.length - 1, peaks[peaks.length - 1]!))
  let root = peaks[peaks.length - 1]!
  for (let i = peaks.length - 2; i >= 0; i--) root = hashChildren(peaks[i]!, root)
  return keepHash(root)
}

/**
 * RFC 6962 audit path of leaf `m` in a tree of `size` leaves (leaf hashes used
 * directly, reference §5.3/§5.4), ordered from the leaf upwards, as the node's
 * `InclusionProof(m, n)` returns it. Leaf i is `leaf(i)`, and
 * `known(lo, hi)` may give the root of the subtree over leaves lo..hi-1 without its
 * leaves (a fork's frontier below the fork block: fork/blockTree.ts). Every
 * subtree the path needs must be known or have its leaves.
 */
export function auditPath(size: number, m: number, leaf: (i: number) => Uint8Array, known: (lo: number, hi: number) => Uint8Array | undefined): Uint8Array[] {
  const root = (lo: number, hi: number): Uint8Array => {
    const given = known(lo, hi)
    if (given !== undefined) return given
    if (hi - lo === 1) return leaf(lo)
    const k = largestPowerOfTwoBelow(hi - lo)
    return hashChildren(root(lo, lo + k), root(lo + k, hi))
  }
  const path: Uint8Array[] = []
  const walk = (lo: number, hi: number): void => {
    if (hi - lo <= 1) return
    const k = largestPowerOfTwoBelow(hi - lo)
    if (m < lo + k) {
      walk(lo, lo + k)
      path.push(root(lo + k, hi))
    } else {
      walk(lo + k, hi)
      path.push(root(lo, lo + k))
    }
  }
  walk(0, size)
  return path
}

function largestPowerOfTwoBelow(n: number): number {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

/**
 * Client-side check of a merkle proof as the node's `calculate_root_hash_from_audit_path`
 * does (reference §5.4). Inputs in raw byte order: the block's TransactionsRoot, its
 * height `m`, the tree size `n` (CurBlockHeight + 1), the audit path, and the root
 * (CurBlockRoot). True when the path leads from the leaf to the root.
 */
export function verifyAuditPath(leaf: Uint8Array, m: number, n: number, path: readonly Uint8Array[], root: Uint8Array): boolean {
  let h = leaf
  let i = m
  let last = n - 1
  let pos = 0
  while (last > 0) {
    if (i % 2 === 1) {
      const sibling = path[pos++]
      if (sibling === undefined) return false
      h = hashChildren(sibling, h)
    } else if (i < last) {
      const sibling = path[pos++]
      if (sibling === undefined) return false
      h = hashChildren(h, sibling)
    }
    i = Math.floor(i / 2)
    last = Math.floor(last / 2)
  }
  return pos === path.length && h.length === root.length && h.every((b, j) => b === root[j])
}
