/**
 * Independent implementations of the chain's byte rules for the tests (reference §1.7,
 * §2.1, §3, §5.2, §5.3), written from the reference and not from src/, so that tests
 * check dualnet against them. Not a test file: vitest only collects `*.test.ts`.
 */
import bs58 from 'bs58'
import { createHash } from 'node:crypto'

/** Hex without a 0x prefix. */
export const strip = (hex: string) => (hex.startsWith('0x') ? hex.slice(2) : hex)
/** REST form of a raw hash or address: the bytes reversed, no 0x (§1.7). */
export const rev = (hex: string) => Buffer.from(strip(hex), 'hex').reverse().toString('hex')
export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest()
export const sha256d = (data: Uint8Array) => sha256(sha256(data))

/** Var-bytes in hex: a 1-byte length below 0xfd, else 0xfd + u16 LE (§2.1). */
export function varbytes(hex: string): string {
  const n = hex.length / 2
  if (n < 0xfd) return n.toString(16).padStart(2, '0') + hex
  const prefix = Buffer.alloc(3)
  prefix[0] = 0xfd
  prefix.writeUInt16LE(n, 1)
  return prefix.toString('hex') + hex
}

/** Base58 over `payload` with its checksum: first 4 bytes of SHA256d (§3). */
export const base58Check = (payload: Buffer) => bs58.encode(Buffer.concat([payload, sha256d(payload).subarray(0, 4)]))

/** Base58 address of 20 bytes (0x hex or bytes): version 0x17 (§3). */
export function base58(address: string | Uint8Array): string {
  return base58Check(Buffer.concat([Buffer.of(0x17), typeof address === 'string' ? Buffer.from(strip(address), 'hex') : address]))
}

/** TransactionsRoot over raw tx hashes: SHA256d of pairs, an odd last node paired with itself (§5.2). */
export function transactionsRoot(hashes: Buffer[]): Buffer {
  if (hashes.length === 0) return Buffer.alloc(32)
  let level = hashes
  while (level.length > 1) {
    const next: Buffer[] = []
    for (let i = 0; i < level.length; i += 2) next.push(sha256d(Buffer.concat([level[i]!, level[i + 1] ?? level[i]!])))
    level = next
  }
  return level[0]!
}

/** Root of the compact tree over `leaves` (leaf hashes used directly, nodes SHA256(0x01 ‖ L ‖ R); §5.3). */
export function compactRoot(leaves: Buffer[]): Buffer {
  if (leaves.length === 1) return leaves[0]!
  let k = 1
  while (k * 2 < leaves.length) k *= 2
  return sha256(Buffer.concat([Buffer.of(1), compactRoot(leaves.slice(0, k)), compactRoot(leaves.slice(k))]))
}
