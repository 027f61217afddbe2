/**
 * Keccak-256 for the EVM's SHA3 opcode (through @ethereumjs/common's
 * `customCrypto.keccak256`), with a bounded memo for short inputs. Contract code
 * hashes the same few mapping keys (`keccak(key ‖ slot)`: balances, allowances of the
 * same accounts) on every call, and a lookup costs a tenth of the hash. The memo holds
 * at most {@link LIMIT} entries and is emptied when full; every caller gets its own
 * copy of the digest.
 */
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'

/** Longest input memoised: a mapping key and its slot. */
const MAX_INPUT = 64
const LIMIT = 8192
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
