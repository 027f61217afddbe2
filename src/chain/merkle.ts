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
