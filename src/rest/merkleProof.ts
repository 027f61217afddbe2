/**
 * Merkle proofs of transaction inclusion as the node serves them (reference §1.4.8,
 * §5.4) and their verification, exported for clients.
 */
import { inclusionProof, verifyAuditPath } from '../chain/merkle.ts'
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

/** The proof that the block at `height` is in the BlockRoot of the current block. */
export function merkleProof(chain: Chain, height: number): MerkleProof {
  const tip = chain.height
  if (chain.firstHeight > 0) {
    // The BlockRoot tree of a fork would need the remote's tree below the fork block, which is not fetched.
    throw new RestError(RestErrorCode.InternalError, `merkle proofs are not served on a fork: the remote's block tree below the fork block ${chain.firstHeight} is not fetched`)
  }
  const leaves: Uint8Array[] = []
  for (let h = 0; h <= tip; h++) leaves.push(chain.transactionsRootAt(h))
  const path = inclusionProof(leaves, height)
  return {
    Type: 'MerkleProof',
    TransactionsRoot: toReversedHex(leaves[height]!),
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
