/**
 * The chain's hash functions (reference §2.1, §3, §5): double SHA-256 for native
 * hashes, hash160 for addresses, keccak-256 for the EVM.
 *
 * SHA-256 and RIPEMD-160 are Node's (OpenSSL). Keccak-256 is not in OpenSSL 3.0: it is
 * hash-wasm's WebAssembly one, and @noble/hashes' until that is ready (hot paths avoid
 * recomputing it too: bloom positions, renderings).
 */
/// <reference path="./hash-wasm-keccak.d.ts" />
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { IHasher } from 'hash-wasm'
// hash-wasm's Keccak alone (11 KB) rather than its index, whose other hash functions' WebAssembly (270 KB) a bundle cannot drop.
import hashWasmKeccak from 'hash-wasm/dist/keccak.umd.min.js'
import { getHashes, hash } from 'node:crypto'
import { createRequire } from 'node:module'

/**
 * RIPEMD-160: Node's (OpenSSL 3 has it in its default provider since 3.0.7, which
 * every Node >= 20.19 bundles); on a Node linked against an OpenSSL without it, the
 * pure-JS one of @noble/hashes, loaded only then. Loaded with `require` rather than a
 * top-level await, so that `require('dualnet')` (require of an ES module, Node >= 20.19)
 * can load this module: Node refuses to require a module graph with a top-level await.
 */
const ripemd160: (data: Uint8Array) => Uint8Array = getHashes().includes('ripemd160')
  ? (data) => nodeDigest('ripemd160', data)
  : (createRequire(import.meta.url)('@noble/hashes/legacy.js') as { ripemd160: (data: Uint8Array) => Uint8Array }).ripemd160

/**
 * SHA-256 through Node's one-shot `crypto.hash` (Node >= 20.12): for the short inputs
 * of block headers and Merkle nodes it is 2-4x faster than a Hash object or pure JS,
 * and blocks hash a lot of short inputs.
 */
export function sha256(data: Uint8Array): Uint8Array {
  return nodeDigest('sha256', data)
}

/** One-shot digest by Node's crypto, as a Uint8Array view of the returned Buffer. */
function nodeDigest(algorithm: string, data: Uint8Array): Uint8Array {
  const digest = hash(algorithm, data, 'buffer')
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength)
}

/** SHA256(SHA256(data)): native transaction, block and Merkle hashes (reference §2.1, §5.1, §5.2). */
export function sha256d(data: Uint8Array): Uint8Array {
  return sha256(sha256(data))
}

/** RIPEMD160(SHA256(data)): address of a verification script or contract code (reference §3). */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data))
}

/** hash-wasm's Keccak-256 once its WebAssembly module is compiled; undefined until then. */
let wasmKeccak: IHasher | undefined

/**
 * Settles when the WebAssembly Keccak-256 is compiled (asynchronously, started when this
 * module loads; a few event-loop turns): true, or false where WebAssembly is unavailable,
 * and {@link keccak256} stays @noble/hashes'.
 */
export const wasmKeccakReady: Promise<boolean> = hashWasmKeccak.createKeccak(256).then(
  (hasher) => {
    wasmKeccak = hasher
    return true
  },
  () => false,
)

/**
 * Keccak-256 (EVM hashes, addresses, event topics), a new 32-byte array. WebAssembly
 * runs at full speed from its first call, where JavaScript starts in V8's interpreter:
 * a fresh process's first hash of a 2.5 KB deployment costs ~17 ms of CPU in
 * @noble/hashes and ~1 ms here, and a 64-byte input a third to a fifth of @noble/hashes'
 * time when warm (docs/performance.md, "Cold start"). Calls made before the module is
 * compiled go to @noble/hashes: the same function, so the same digest.
 */
export function keccak256(data: Uint8Array): Uint8Array {
  return wasmKeccak === undefined ? keccak_256(data) : wasmKeccak.init().update(data).digest('binary')
}
