/**
 * Keccak-256 with a small bounded memo for short inputs: the public keys that signed
 * transactions (a test suite's transactions come from a few senders, and a lookup
 * costs a tenth of the hash). Small on purpose: a memo of every mapping slot the EVM
 * hashes (tried) turned into old-generation garbage on workloads that write many
 * distinct slots and raised the peak memory more than it saved time. The memo holds at
 * most {@link LIMIT} entries and is emptied when full; every caller gets its own copy
 * of the digest.
 */
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'

/** Longest input memoised: an uncompressed secp256k1 public key without its prefix. */
const MAX_INPUT = 64
const LIMIT = 256
const memo = new Map<string, Uint8Array>()

/** keccak-256 of `data` (a new array). */
export function memoKeccak256(data: Uint8Array): Uint8Array {
  if (data.length > MAX_INPUT) return keccak256(data)
  const key = toHexRaw(data)
  let digest = memo.get(key)
  if (digest === undefined) {
    digest = keccak256(data)
    if (memo.size >= LIMIT) memo.clear()
    memo.set(key, digest)
  }
  return digest.slice()
}
