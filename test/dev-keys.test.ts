/**
 * Dev keys and the bookkeeper without JavaScript curves on the start path: the table
 * of the default mnemonic's keys against a real BIP-32 derivation, addresses of given
 * keys and P-256 keys against @noble/curves, and the native RFC 6979 P-256 signer
 * against noble's `p256.sign` byte for byte.
 */
import { HDKey } from '@scure/bip32'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { pbkdf2Sync, randomBytes } from 'node:crypto'
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { addressOfPrivateKey, DEFAULT_DEV_KEYS, DEFAULT_MNEMONIC, deriveDevKeys, deriveFromMnemonic } from '../src/chain/devAccounts.ts'
import { createBookkeeper, DEFAULT_BOOKKEEPER_KEY, p256PublicKey, p256Sign } from '../src/chain/bookkeeper.ts'
import { addressOfP256Key, nativeDevKey } from '../src/chain/nativeDevAccounts.ts'
import { createDevnet } from '../src/index.ts'
import { checksumAddress } from '../src/util/checksumAddress.ts'
import { hash160 } from '../src/util/hash.ts'
import { fromHex, toHex, toHexRaw } from '../src/util/hex.ts'

/** Keys of `mnemonic` derived independently of src/: BIP-39 seed, @scure/bip32, noble secp256k1, keccak. */
function referenceKeys(mnemonic: string, count: number): { privateKey: string; address: string }[] {
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512')
  const parent = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0")
  return Array.from({ length: count }, (_, i) => {
    const key = parent.deriveChild(i).privateKey!
    return { privateKey: toHex(key), address: toHex(keccak_256(secp256k1.getPublicKey(key, false).subarray(1)).subarray(12)) }
  })
}

/** A random valid scalar for both curves (below either order with overwhelming probability; retried otherwise). */
function randomKey(): Uint8Array {
  for (;;) {
    const key = new Uint8Array(randomBytes(32))
    if (secp256k1.utils.isValidSecretKey(key) && p256.utils.isValidSecretKey(key)) return key
  }
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n

describe('dev keys of the default mnemonic', () => {
  it("the table holds the first 20 keys and addresses of m/44'/60'/0'/0/i, as a real derivation gives them", () => {
    const reference = referenceKeys(DEFAULT_MNEMONIC, 20)
    expect(DEFAULT_DEV_KEYS.map(([key, address]) => ({ privateKey: `0x${key}`, address: `0x${address}` }))).toEqual(reference)
    // Hardhat's and Anvil's account #0, as every tutorial prints it.
    expect(reference[0]).toEqual({
      privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
      address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    })
  })

  it('derives for real beyond the table and for any other mnemonic', async () => {
    const beyond = await deriveDevKeys(23)
    expect(beyond.map((k) => ({ privateKey: k.privateKey, address: toHex(k.address) }))).toEqual(referenceKeys(DEFAULT_MNEMONIC, 23))
    const other = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
    const keys = await deriveDevKeys(3, other)
    expect(keys.map((k) => ({ privateKey: k.privateKey, address: toHex(k.address) }))).toEqual(referenceKeys(other, 3))
    // The derivation used for table misses, on its own.
    const direct = await deriveFromMnemonic(DEFAULT_MNEMONIC, 18, 21)
    expect(direct.map((k) => k.privateKey)).toEqual(
      referenceKeys(DEFAULT_MNEMONIC, 21)
        .slice(18)
        .map((k) => k.privateKey),
    )
  })

  it('concurrent requests for the same mnemonic agree', async () => {
    const other = 'legal winner thank year wave sausage worth useful legal winner thank yellow'
    const [a, b] = await Promise.all([deriveDevKeys(2, other), deriveDevKeys(4, other)])
    const reference = referenceKeys(other, 4).map((k) => k.privateKey)
    expect(a.map((k) => k.privateKey)).toEqual(reference.slice(0, 2))
    expect(b.map((k) => k.privateKey)).toEqual(reference)
    expect((await deriveDevKeys(4, other)).map((k) => k.privateKey)).toEqual(reference)
  })

  it('createDevnet funds the same accounts with a non-default mnemonic and with more than 20 accounts', async () => {
    const other = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
    const d = await createDevnet({ accounts: 2, mnemonic: other, nativeAccounts: 0 })
    expect(d.accounts.map((a) => a.addressLower)).toEqual(referenceKeys(other, 2).map((k) => k.address))
    // EIP-55, as Anvil and Hardhat print them and as viem's getAddress renders them.
    expect(d.accounts.map((a) => a.address)).toEqual(referenceKeys(other, 2).map((k) => getAddress(k.address)))
    await d.close()
    const many = await createDevnet({ accounts: 22, nativeAccounts: 0 })
    expect(many.accounts.map((a) => a.privateKey)).toEqual(referenceKeys(DEFAULT_MNEMONIC, 22).map((k) => k.privateKey))
    expect(await many.rpc('eth_accounts')).toEqual(referenceKeys(DEFAULT_MNEMONIC, 22).map((k) => k.address))
    await many.close()
  })
})

describe('EIP-55 addresses of the dev accounts', () => {
  it('devnet.accounts[i].address is checksummed as Anvil and Hardhat print it; addressLower is the JSON-RPC rendering', async () => {
    const devnet = await createDevnet({ accounts: 3, nativeAccounts: 0 })
    expect(devnet.accounts[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(devnet.accounts.map((a) => a.address)).toEqual(DEFAULT_DEV_KEYS.slice(0, 3).map(([, address]) => getAddress(`0x${address}`)))
    expect(devnet.accounts.map((a) => a.addressLower)).toEqual(await devnet.rpc('eth_accounts'))
    await devnet.close()
  })

  it('checksumAddress agrees with viem on random addresses, from bytes or hex of any case', () => {
    for (let i = 0; i < 200; i++) {
      const bytes = new Uint8Array(randomBytes(20))
      const expected = getAddress(toHex(bytes))
      expect(checksumAddress(bytes)).toBe(expected)
      expect(checksumAddress(toHex(bytes).toUpperCase().replace('0X', '0x'))).toBe(expected)
      expect(checksumAddress(toHexRaw(bytes))).toBe(expected)
    }
  })
})

describe('addresses of given secp256k1 keys (native curve)', () => {
  it('equal keccak256(noble public key)[12:] for random keys and the edge scalars', () => {
    const keys = [...Array.from({ length: 50 }, randomKey), fromHex('0x' + '00'.repeat(31) + '01'), fromHex('0x' + (SECP256K1_N - 1n).toString(16))]
    for (const key of keys) {
      const expected = keccak_256(secp256k1.getPublicKey(key, false).subarray(1)).subarray(12)
      expect(toHexRaw(addressOfPrivateKey(key))).toBe(toHexRaw(expected))
      expect(toHexRaw(addressOfPrivateKey(toHex(key)))).toBe(toHexRaw(expected))
    }
  })

  it('refuses zero, the order and beyond, and keys that are not 32 bytes', () => {
    expect(() => addressOfPrivateKey(new Uint8Array(32))).toThrow(/invalid secp256k1 private key/)
    expect(() => addressOfPrivateKey(fromHex('0x' + SECP256K1_N.toString(16)))).toThrow(/invalid secp256k1 private key/)
    expect(() => addressOfPrivateKey(new Uint8Array(32).fill(0xff))).toThrow(/invalid secp256k1 private key/)
    expect(() => addressOfPrivateKey('0x01')).toThrow(/32 bytes/)
    expect(() => addressOfPrivateKey(new Uint8Array(33).fill(1))).toThrow(/32 bytes/)
  })
})

describe('P-256 keys on the native curve, signatures by noble', () => {
  it("compressed public keys equal noble's", () => {
    for (let i = 0; i < 50; i++) {
      const key = randomKey()
      expect(toHexRaw(p256PublicKey(key))).toBe(toHexRaw(p256.getPublicKey(key, true)))
    }
    const top = fromHex('0x' + (P256_N - 1n).toString(16))
    expect(toHexRaw(p256PublicKey(top))).toBe(toHexRaw(p256.getPublicKey(top, true)))
    expect(() => p256PublicKey(new Uint8Array(32))).toThrow(/invalid P-256 private key/)
    expect(() => p256PublicKey(fromHex('0x' + P256_N.toString(16)))).toThrow(/invalid P-256 private key/)
    expect(() => p256PublicKey(new Uint8Array(31).fill(1))).toThrow(/32 bytes/)
  })

  it("signatures are noble's p256.sign (RFC 6979, low-S), loaded on first use, and verify", () => {
    const keys = [fromHex(DEFAULT_BOOKKEEPER_KEY), ...Array.from({ length: 20 }, randomKey)]
    for (const key of keys) {
      const publicKey = p256.getPublicKey(key, true)
      for (const length of [0, 1, 32, 33, 100]) {
        const message = new Uint8Array(randomBytes(length))
        const ours = p256Sign(message, key)
        expect(toHexRaw(ours)).toBe(toHexRaw(p256.sign(message, key)))
        expect(p256.verify(ours, message, publicKey)).toBe(true)
      }
    }
    expect(() => p256Sign(new Uint8Array(1), new Uint8Array(32))).toThrow(/invalid private key/)
  })

  it("hash160 (native RIPEMD-160 of native SHA-256) equals noble's", () => {
    for (const length of [0, 1, 35, 64, 65, 1000]) {
      const data = new Uint8Array(randomBytes(length))
      expect(toHexRaw(hash160(data))).toBe(toHexRaw(ripemd160(sha256(data))))
    }
  })

  it('the bookkeeper signs as noble does and has the address of its key; native dev keys match noble', () => {
    const bookkeeper = createBookkeeper()
    expect(toHexRaw(bookkeeper.publicKey)).toBe(toHexRaw(p256.getPublicKey(fromHex(DEFAULT_BOOKKEEPER_KEY), true)))
    expect(toHexRaw(bookkeeper.address)).toBe(toHexRaw(addressOfP256Key(bookkeeper.publicKey)))
    const hash = new Uint8Array(randomBytes(32))
    expect(toHexRaw(bookkeeper.sign(hash))).toBe(toHexRaw(p256.sign(hash, fromHex(DEFAULT_BOOKKEEPER_KEY))))
    expect(() => createBookkeeper('0x00')).toThrow()
    for (let i = 0; i < 5; i++) {
      const key = nativeDevKey(i)
      expect(key.publicKey).toBe(toHex(p256.getPublicKey(fromHex(key.privateKey), true)))
      expect(toHexRaw(key.address)).toBe(toHexRaw(addressOfP256Key(fromHex(key.publicKey))))
    }
  })
})
