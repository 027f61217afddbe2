/**
 * Funded dev accounts. The default set is Hardhat's and Anvil's well-known one
 * (mnemonic "test test … junk", path m/44'/60'/0'/0/i), so keys and addresses that
 * test suites already hard-code work here too.
 */
import { HDKey } from '@scure/bip32'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { pbkdf2Sync } from 'node:crypto'
import { keccak256 } from '../util/hash.ts'
import { fromHex, toHex, type Hex } from '../util/hex.ts'

/** The mnemonic Hardhat and Anvil derive their dev accounts from. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

/** A dev account key with its EVM address. */
export interface DevKey {
  /** 32-byte secp256k1 private key, 0x-hex. */
  privateKey: Hex
  /** 20 raw address bytes (the same bytes in the 0x and Base58 renderings). */
  address: Uint8Array
}

const derived = new Map<string, DevKey[]>()

/**
 * The first `count` keys of `mnemonic` on path m/44'/60'/0'/0/i (BIP-39 seed without
 * passphrase, BIP-32). Memoised per mnemonic for the process: devnets created later
 * pay nothing.
 */
export function deriveDevKeys(count: number, mnemonic: string = DEFAULT_MNEMONIC): DevKey[] {
  let keys = derived.get(mnemonic)
  if (keys === undefined) {
    keys = []
    derived.set(mnemonic, keys)
  }
  if (keys.length < count) {
    // BIP-39 seed: PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic" (no passphrase).
    const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
    const parent = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0")
    for (let i = keys.length; i < count; i++) {
      const privateKey = parent.deriveChild(i).privateKey!
      keys.push({ privateKey: toHex(privateKey), address: addressOfPrivateKey(privateKey) })
    }
  }
  return keys.slice(0, count)
}

/** EVM address of a secp256k1 private key: keccak256(uncompressed public key)[12:]. */
export function addressOfPrivateKey(privateKey: Uint8Array | Hex): Uint8Array {
  const key = typeof privateKey === 'string' ? fromHex(privateKey) : privateKey
  const pub = secp256k1.getPublicKey(key, false)
  return keccak256(pub.subarray(1)).subarray(12)
}
