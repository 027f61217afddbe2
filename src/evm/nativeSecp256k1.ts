/**
 * Sender recovery for EVM transactions with libsecp256k1 (the library go-ethereum
 * uses), through the `secp256k1` package's prebuilt binding. Recovery runs for every
 * submitted transaction and every ECRECOVER: natively it costs ~0.1 ms against
 * ~3-4 ms in pure JS on the reference machine, so it sets the devnet's transaction
 * throughput. The package falls back to a pure-JS implementation on its own where
 * the binding cannot load.
 */
import type { CustomCrypto } from '@ethereumjs/common'
import { keccak256 } from '../util/hash.ts'
import { libsecp256k1 } from '../util/secp256k1.ts'

/**
 * @ethereumjs/common crypto overrides: `ecrecover` (64-byte uncompressed key without
 * prefix), and `keccak256`, the devnet's own (WebAssembly, util/hash.ts), which the EVM
 * uses for SHA3 and EXTCODEHASH in place of @noble/hashes'.
 */
export const nativeCrypto: CustomCrypto = {
  keccak256,
  ecrecover(msgHash, v, r, s, chainId) {
    const recovery = chainId === undefined ? v - 27n : v - (2n * chainId + 35n)
    if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value')
    const signature = new Uint8Array(64)
    if (r.length > 32 || s.length > 32) throw new Error('Invalid signature: r or s longer than 32 bytes')
    signature.set(r, 32 - r.length)
    signature.set(s, 64 - s.length)
    return libsecp256k1().ecdsaRecover(signature, Number(recovery), msgHash, false).slice(1)
  },
}
