/**
 * Merkle proofs of transaction inclusion as the node serves them (reference §1.4.8,
 * §5.4) and their verification, exported for clients.
 */
import { auditPath, verifyAuditPath } from '../native/merkle.ts'
import type { Chain } from '../chain/chain.ts'
import { toReversedHex } from '../util/hex.ts'
import { RestError, RestErrorCode } from './errors.ts'

/** The Result of get_merkle_proof. Hashes in REST form (reversed hex). */
export interface MerkleProof {
  Type: 'MerkleProof'
  TransactionsRoot: string
  BlockHeight: number
  CurBlockRoot: string
  CurBlockHeight: number
  TargetHashes: string[] | null
}

/**
 * The proof that the block at `height` is in the BlockRoot of the current block. On a
 * fork the tree's leaves at and below the fork block are not held: its frontier there
 * (the fork block's peaks, the roots of the perfect subtrees of the binary
 * decomposition of fork height + 1, largest first) stands for them, which is all a
 * path from a later block needs. Throws RestError 45001 on a fork whose tree does
 * not continue the remote's (ForkSource.treeGap).
 */
export function merkleProof(chain: Chain, height: number): MerkleProof {
  const tip = chain.height
  const base = chain.firstHeight
  const known = new Map<string, Uint8Array>()
  if (base > 0) {
    const gap = chain.fork?.treeGap
    if (gap !== undefined) throw new RestError(RestErrorCode.InternalError, `merkle proofs are not served on this fork: ${gap}`)
    let lo = 0
    for (const peak of chain.blockAt(base)!.peaks) {
      let size = 1
      while (size * 2 <= base + 1 - lo) size *= 2
      known.set(`${lo}:${lo + size}`, peak)
      lo += size
    }
  }
  const path = auditPath(
    tip + 1,
    height,
    (h) => chain.transactionsRootAt(h),
    (lo, hi) => known.get(`${lo}:${hi}`),
  )
  return {
    Type: 'MerkleProof',
    TransactionsRoot: toReversedHex(chain.transactionsRootAt(height)),
    BlockHeight: height,
    CurBlockRoot: toReversedHex(chain.latest.header.blockRoot),
    CurBlockHeight: tip,
    // The node's JSON has null, not [], for an empty proof (a tree of one leaf).
    TargetHashes: path.length === 0 ? null : path.map((p) => toReversedHex(p)),
  }
}

/**
 * Verifies a get_merkle_proof Result: the block's TransactionsRoot leads through
 * TargetHashes to CurBlockRoot (reference §5.4). Pure; throws nothing (false for
 * malformed input).
 */
export function verifyMerkleProof(proof: Pick<MerkleProof, 'TransactionsRoot' | 'BlockHeight' | 'CurBlockRoot' | 'CurBlockHeight' | 'TargetHashes'>): boolean {
  const raw = (hex: string) => (/^[0-9a-fA-F]{64}$/.test(hex) ? Uint8Array.from(Buffer.from(hex, 'hex')).reverse() : undefined)
  const leaf = raw(proof.TransactionsRoot)
  const root = raw(proof.CurBlockRoot)
  const path = (proof.TargetHashes ?? []).map(raw)
  if (leaf === undefined || root === undefined || path.some((p) => p === undefined)) return false
  if (!Number.isInteger(proof.BlockHeight) || proof.BlockHeight < 0 || proof.BlockHeight > proof.CurBlockHeight) return false
  return verifyAuditPath(leaf, proof.BlockHeight, proof.CurBlockHeight + 1, path as Uint8Array[], root)
}
