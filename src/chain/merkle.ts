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
 */
import { sha256, sha256d } from '../util/hash.ts'
import { concatBytes } from '../util/hex.ts'

const ZERO_HASH = new Uint8Array(32)
const NODE_PREFIX = Uint8Array.of(1)

/** TransactionsRoot of raw-order tx hashes (reference §5.2). */
export function transactionsRoot(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return ZERO_HASH
  let level = hashes.slice()
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!
      const right = level[i + 1] ?? left
      next.push(sha256d(concatBytes(left, right)))
    }
    level = next
  }
  return level[0]!
}

/** Internal node of the compact tree: SHA256(0x01 ‖ left ‖ right). */
export function hashChildren(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concatBytes(NODE_PREFIX, left, right))
}

/**
 * Peaks after appending `leaf` to a tree of `size` leaves with peaks `peaks`
 * (largest subtree first). Returns a new array; the input is not changed.
 */
export function appendLeaf(peaks: readonly Uint8Array[], size: number, leaf: Uint8Array): Uint8Array[] {
  const next = peaks.slice()
  next.push(leaf)
  // Each trailing 1-bit of `size` is a perfect subtree the new leaf completes.
  for (let s = size; (s & 1) === 1; s >>>= 1) {
    const right = next.pop()!
    const left = next.pop()!
    next.push(hashChildren(left, right))
  }
  return next
}

/** Root of the compact tree from its peaks (RFC 6962 split at the largest power of two). */
export function rootFromPeaks(peaks: readonly Uint8Array[]): Uint8Array {
  if (peaks.length === 0) return ZERO_HASH
  let root = peaks[peaks.length - 1]!
  for (let i = peaks.length - 2; i >= 0; i--) root = hashChildren(peaks[i]!, root)
  return root
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
