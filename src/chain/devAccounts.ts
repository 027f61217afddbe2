/**
 * Funded dev accounts. The default set is Hardhat's and Anvil's well-known one
 * (mnemonic "test test … junk", path m/44'/60'/0'/0/i), so keys and addresses that
 * test suites already hard-code work here too.
 *
 * Start-up cost: the first 20 keys of the default mnemonic come from a table (the
 * public Hardhat/Anvil values, checked against a real derivation by
 * test/dev-keys.test.ts); BIP-32 (@scure/bip32) is imported only for another
 * mnemonic or more keys. Addresses of given keys use Node's native secp256k1
 * (`createECDH`), not a JavaScript curve.
 */
import { createECDH, pbkdf2Sync } from 'node:crypto'
import { keccak256 } from '../util/hash.ts'
import { fromHex, toHex, toHexRaw, type Hex } from '../util/hex.ts'

/** The mnemonic Hardhat and Anvil derive their dev accounts from. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

/** A dev account key with its EVM address. */
export interface DevKey {
  /** 32-byte secp256k1 private key, 0x-hex. */
  privateKey: Hex
  /** 20 raw address bytes (the same bytes in the 0x and Base58 renderings). */
  address: Uint8Array
}

/**
 * [private key, address] of m/44'/60'/0'/0/0..19 of {@link DEFAULT_MNEMONIC}: the
 * accounts Hardhat Network and Anvil print at start-up.
 */
export const DEFAULT_DEV_KEYS: readonly (readonly [key: string, address: string])[] = [
  ['ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
  ['59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', '70997970c51812dc3a010c7d01b50e0d17dc79c8'],
  ['5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a', '3c44cdddb6a900fa2b585dd299e03d12fa4293bc'],
  ['7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6', '90f79bf6eb2c4f870365e785982e1f101e93b906'],
  ['47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a', '15d34aaf54267db7d7c367839aaf71a00a2c6a65'],
  ['8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba', '9965507d1a55bcc2695c58ba16fb37d819b0a4dc'],
  ['92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e', '976ea74026e726554db657fa54763abd0c3a0aa9'],
  ['4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356', '14dc79964da2c08b23698b3d3cc7ca32193d9955'],
  ['dbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97', '23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f'],
  ['2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6', 'a0ee7a142d267c1f36714e4a8f75612f20a79720'],
  ['f214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897', 'bcd4042de499d14e55001ccbb24a551f3b954096'],
  ['701b615bbdfb9de65240bc28bd21bbc0d996645a3dd57e7b12bc2bdf6f192c82', '71be63f3384f5fb98995898a86b02fb2426c5788'],
  ['a267530f49f8280200edf313ee7af6b827f2a8bce2897751d06a843f644967b1', 'fabb0ac9d68b0b445fb7357272ff202c5651694a'],
  ['47c99abed3324a2707c28affff1267e45918ec8c3f20b8aa892e8b065d2942dd', '1cbd3b2770909d4e10f157cabc84c7264073c9ec'],
  ['c526ee95bf44d8fc405a158bb884d9d1238d99f0612e9f33d006bb0789009aaa', 'df3e18d64bc6a983f673ab319ccae4f1a57c7097'],
  ['8166f546bab6da521a8369cab06c5d2b9e46670292d85c875ee9ec20e84ffb61', 'cd3b766ccdd6ae721141f452c550ca635964ce71'],
  ['ea6c44ac03bff858b476bba40716402b03e41b8e97e276d1baec7c37d42484a0', '2546bcd3c84621e976d8185a91a922ae77ecec30'],
  ['689af8efa8c651a91ad287602527f3af2fe9f6501a7ac4b061667b5a93e037fd', 'bda5747bfd65f08deb54cb465eb87d40e51b197e'],
  ['de9be858da4a475276426320d5e9262ecfc3ba460bfac56360bfa6c4c28b4ee0', 'dd2fd4581271e230360230f9337d5c0430bf44c0'],
  ['df57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e', '8626f6940e2eb28930efb4cef49b2d1f2c9c1199'],
]

const derived = new Map<string, DevKey[]>()

/**
 * The first `count` keys of `mnemonic` on path m/44'/60'/0'/0/i (BIP-39 seed without
 * passphrase, BIP-32). Keys of the default mnemonic up to the 20th come from
 * {@link DEFAULT_DEV_KEYS}; the rest are derived (@scure/bip32, imported on first
 * need). Memoised per mnemonic for the process: devnets created later pay nothing.
 * Resolves to fresh arrays of shared, unmodified key objects.
 */
export async function deriveDevKeys(count: number, mnemonic: string = DEFAULT_MNEMONIC): Promise<DevKey[]> {
  let keys = derived.get(mnemonic)
  if (keys === undefined) {
    keys = []
    derived.set(mnemonic, keys)
  }
  if (mnemonic === DEFAULT_MNEMONIC) {
    for (let i = keys.length; i < Math.min(count, DEFAULT_DEV_KEYS.length); i++) {
      const [key, address] = DEFAULT_DEV_KEYS[i]!
      keys.push({ privateKey: `0x${key}`, address: fromHex(`0x${address}`) })
    }
  }
  if (keys.length < count) {
    const from = keys.length
    const more = await deriveFromMnemonic(mnemonic, from, count)
    // A concurrent call may have appended some meanwhile; add only what is still missing.
    for (let i = keys.length; i < count; i++) keys.push(more[i - from]!)
  }
  return keys.slice(0, count)
}

/** Keys `from`..`to - 1` of `mnemonic` by real BIP-39/BIP-32 derivation. */
export async function deriveFromMnemonic(mnemonic: string, from: number, to: number): Promise<DevKey[]> {
  const { HDKey } = await import('@scure/bip32')
  // BIP-39 seed: PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic" (no passphrase).
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
  const parent = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0")
  const keys: DevKey[] = []
  for (let i = from; i < to; i++) {
    const privateKey = parent.deriveChild(i).privateKey!
    keys.push({ privateKey: toHex(privateKey), address: addressOfPrivateKey(privateKey) })
  }
  return keys
}

/**
 * EVM address of a secp256k1 private key: keccak256(uncompressed public key)[12:]
 * (read from {@link DEFAULT_DEV_KEYS} for the well-known keys, which tests and
 * benchmarks pass most). Throws `Error` when the key is not a 32-byte scalar in [1, n-1].
 */
export function addressOfPrivateKey(privateKey: Uint8Array | Hex): Uint8Array {
  const key = typeof privateKey === 'string' ? fromHex(privateKey) : privateKey
  if (key.length !== 32) throw new Error(`a secp256k1 private key is 32 bytes, got ${key.length}`)
  const hex = toHexRaw(key)
  const known = DEFAULT_DEV_KEYS.find(([k]) => k === hex)
  if (known !== undefined) return fromHex(known[1])
  const ecdh = createECDH('secp256k1')
  try {
    ecdh.setPrivateKey(key)
  } catch (err) {
    throw new Error('invalid secp256k1 private key', { cause: err })
  }
  const pub = ecdh.getPublicKey()
  return keccak256(new Uint8Array(pub.buffer, pub.byteOffset + 1, 64)).subarray(12)
}
