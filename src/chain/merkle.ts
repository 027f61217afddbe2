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
 * their exact length: every block holds its own.
 */
import { sha256, sha256d } from '../util/hash.ts'

const ZERO_HASH = new Uint8Array(32)

/** Hashes per arena chunk: small, so that a chunk dies soon after the blocks whose hashes it holds. */
const CHUNK_HASHES = 32
let chunk = new Uint8Array(32 * CHUNK_HASHES)
let chunkUsed = chunk.length

/**
 * A copy of the 32-byte `hash` as a view into a shared chunk (the chunk's ArrayBuffer,
 * with `byteOffset`), for hashes that a block keeps. Views are never written after
 * this copy.
 */
export function keepHash(hash: Uint8Array): Uint8Array {
  if (hash.length !== 32) return hash.slice()
  if (chunkUsed === chunk.length) {
    chunk = new Uint8Array(32 * CHUNK_HASHES)
    chunkUsed = 0
  }
  const start = chunkUsed
  chunk.set(hash, start)
  chunkUsed = start + 32
  return chunk.subarray(start, start + 32)
}

/** Scratch input of the node hashes: 0x01 ‖ left ‖ right, and left ‖ right. */
const NODE_INPUT = new Uint8Array(65)
NODE_INPUT[0] = 1
const PAIR_INPUT = NODE_INPUT.subarray(1)

/** TransactionsRoot of raw-order tx hashes (reference §5.2). */
export function transactionsRoot(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return ZERO_HASH
  if (hashes.length === 1) return hashes[0]!
  let level: readonly Uint8Array[] = hashes
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!
      const right = level[i + 1] ?? left
      next.push(pairHash(left, right))
    }
    level = next
  }
  return keepHash(level[0]!)
}

/** SHA256d(left ‖ right) of two 32-byte hashes (a TransactionsRoot node). */
function pairHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== 32 || right.length !== 32) {
    const input = new Uint8Array(left.length + right.length)
    input.set(left)
    input.set(right, left.length)
    return sha256d(input)
  }
  PAIR_INPUT.set(left)
  PAIR_INPUT.set(right, 32)
  return sha256d(PAIR_INPUT)
}

/** Internal node of the compact tree: SHA256(0x01 ‖ left ‖ right). */
export function hashChildren(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== 32 || right.length !== 32) {
    const input = new Uint8Array(1 + left.length + right.length)
    input[0] = 1
    input.set(left, 1)
    input.set(right, 1 + left.length)
    return sha256(input)
  }
  NODE_INPUT.set(left, 1)
  NODE_INPUT.set(right, 33)
  return sha256(NODE_INPUT)
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
  let node = leaf
  for (let i = peaks.length - 1; i >= keep; i--) node = hashChildren(peaks[i]!, node)
  const next = new Array<Uint8Array>(keep + 1)
  for (let i = 0; i < keep; i++) next[i] = peaks[i]!
  next[keep] = merges === 0 ? leaf : keepHash(node)
  return next
}

/** Root of the compact tree from its peaks (RFC 6962 split at the largest power of two). */
export function rootFromPeaks(peaks: readonly Uint8Array[]): Uint8Array {
  if (peaks.length === 0) return ZERO_HASH
  if (peaks.length === 1) return peaks[0]!
  let root = peaks[peaks.length - 1]!
  for (let i = peaks.length - 2; i >= 0; i--) root = hashChildren(peaks[i]!, root)
  return keepHash(root)
}

/**
 * RFC 6962 audit path of leaf `m` in the tree over `leaves` (leaf hashes used
 * directly, reference §5.3/§5.4), ordered from the leaf upwards, as the node's
 * `InclusionProof(m, n)` returns it.
 */
export function inclusionProof(leaves: readonly Uint8Array[], m: number): Uint8Array[] {
  const path: Uint8Array[] = []
  const walk = (lo: number, hi: number, target: number): void => {
    if (hi - lo <= 1) return
    const k = largestPowerOfTwoBelow(hi - lo)
    if (target < lo + k) {
      walk(lo, lo + k, target)
      path.push(subtreeRoot(leaves, lo + k, hi))
    } else {
      walk(lo + k, hi, target)
      path.push(subtreeRoot(leaves, lo, lo + k))
    }
  }
  walk(0, leaves.length, m)
  return path
}

/** Root of the compact tree over `leaves[lo:hi]`. */
function subtreeRoot(leaves: readonly Uint8Array[], lo: number, hi: number): Uint8Array {
  if (hi - lo === 1) return leaves[lo]!
  const k = largestPowerOfTwoBelow(hi - lo)
  return hashChildren(subtreeRoot(leaves, lo, lo + k), subtreeRoot(leaves, lo + k, hi))
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
