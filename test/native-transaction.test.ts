/**
 * The native transaction format (reference §2.1–§2.3, §2.7): decoding, encoding,
 * hashing, signature programs and checks, with the SDK's own test vector, transactions
 * built by the real ontology-ts-sdk, round trips and a fuzzed decoder.
 */
import fc from 'fast-check'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { describe, expect, it } from 'vitest'
import { toBase58 } from '../src/native/address.ts'
import { decodeNativeTransaction, encodeNativeTransaction, InvalidTransactionError, nativeTransactionHash, type NativeTransaction } from '../src/native/transaction.ts'
import { parseProgram, SignatureVerificationError, verifyNativeSignatures } from '../src/native/program.ts'
import { hash160, keccak256 } from '../src/util/hash.ts'
import { concatBytes, fromHex, toHexRaw, toReversedHex } from '../src/util/hex.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk

const VECTOR =
  '00d102b56210f401000000000000400d0300000000004f4b954b7057611c02384f5756f6a34f56fc0a597500c66b144f4b954b7057611c02384f5756f6a34f56fc0a596a7cc8145ff0e5382aed9982f2137e1293256a6e9ab1e00c6a7cc80480c3c9016a7cc86c51c1087472616e736665721400000000000000000000000000000000000000020068164f6e746f6c6f67792e4e61746976652e496e766f6b6500014241018ab6942903d54ec88c42d0230b3ce405cd45cca1b9a1faf528b62ecc3f5b3041f2461d37b66e26cfae31ffa688c86206aed725ca7e84c1609890a0f2caebde2f232102981da02fcd82a1647f76935c377f00d5c6d541f346d3abdbb172cf6b9300adc7ac'

const decode = (hex: string) => decodeNativeTransaction(fromHex(hex)).tx

describe('the SDK test vector (reference §2.7)', () => {
  it('decodes to the stated fields and hash, re-encodes identically, and its signature verifies', () => {
    const tx = decode(VECTOR)
    expect(tx).toMatchObject({ txType: 0xd1, nonce: 274904322, gasPrice: 500n, gasLimit: 200000n })
    expect(toBase58(tx.payer)).toBe('AP19aGJ4GWs2qKv3PCt37r6HgM1v7EhgEM')
    expect(tx.payload.kind === 'invoke' && tx.payload.code.length).toBe(117)
    const hash = nativeTransactionHash(tx)
    expect(toHexRaw(hash)).toBe('78932ac9bae77b2ccf99a1fa858486a3630c4b69999f18e162f307f74092b988')
    expect(toReversedHex(hash)).toBe('88b99240f707f362e1189f99694b0c63a3868485faa199cf2c7be7bac92a9378')
    expect(toHexRaw(encodeNativeTransaction(tx))).toBe(VECTOR)
    expect(hash160(tx.sigs[0]!.verification)).toEqual(tx.payer)
    expect(verifyNativeSignatures(tx, hash)).toEqual([tx.payer])
  })

  it('refuses it truncated at every offset, and ignores trailing bytes', () => {
    const bytes = fromHex(VECTOR)
    for (let n = 0; n < bytes.length; n++) {
      expect(() => decodeNativeTransaction(bytes.subarray(0, n))).toThrow(InvalidTransactionError)
    }
    expect(decodeNativeTransaction(concatBytes(bytes, Uint8Array.of(1, 2, 3))).length).toBe(bytes.length)
  })
})

describe('decoder rules (reference §2.1, §1.5)', () => {
  const base = fromHex(VECTOR)
  const mutate = (at: number, value: number) => {
    const copy = base.slice()
    copy[at] = value
    return copy
  }
  it('refuses a version other than 0, unknown types, attributes and too many signatures', () => {
    expect(() => decodeNativeTransaction(mutate(0, 1))).toThrow(/version 1/)
    expect(() => decodeNativeTransaction(mutate(1, 0x05))).toThrow(/type 0x5/)
    // Attribute count sits right after the 117-byte code: 1+1+4+8+8+20+1+117.
    expect(() => decodeNativeTransaction(mutate(160, 1))).toThrow(/attributes/)
    expect(() => decodeNativeTransaction(mutate(161, 17))).toThrow(/too many signatures/)
  })

  it('refuses non-minimal var-ints', () => {
    const tx = decode(VECTOR)
    const raw = encodeNativeTransaction(tx)
    // Rewrite the code length 0x75 as 0xfd 7500.
    const irregular = concatBytes(raw.subarray(0, 42), Uint8Array.of(0xfd, 0x75, 0x00), raw.subarray(43))
    expect(() => decodeNativeTransaction(irregular)).toThrow(/irregular varint/)
  })
})

describe('signatures (reference §2.2)', () => {
  const unsigned = (payer: Uint8Array): NativeTransaction => ({
    txType: 0xd1, nonce: 7, gasPrice: 2500n, gasLimit: 20000n, payer, payload: { kind: 'invoke', code: Uint8Array.of(0) }, sigs: [],
  })
  const p256Key = (seed: number) => {
    const secret = p256.utils.randomSecretKey(Uint8Array.from({ length: 48 }, (_, i) => (seed * 31 + i) & 0xff))
    return { secret, pub: p256.getPublicKey(secret, true) }
  }
  const singleScript = (pub: Uint8Array) => concatBytes(Uint8Array.of(pub.length), pub, Uint8Array.of(0xac))

  it('accepts 65-byte (scheme 01) and 64-byte P-256 signatures, and refuses a wrong one or a payer who did not sign', () => {
    const { secret, pub } = p256Key(1)
    const script = singleScript(pub)
    const tx = unsigned(hash160(script))
    const hash = nativeTransactionHash(tx)
    const sig = p256.sign(hash, secret)
    tx.sigs = [{ invocation: concatBytes(Uint8Array.of(65, 1), sig), verification: script }]
    expect(verifyNativeSignatures(tx, hash)).toEqual([tx.payer])
    tx.sigs = [{ invocation: concatBytes(Uint8Array.of(64), sig), verification: script }]
    expect(verifyNativeSignatures(tx, hash)).toEqual([tx.payer])
    const bad = sig.slice()
    bad[10]! ^= 1
    tx.sigs = [{ invocation: concatBytes(Uint8Array.of(64), bad), verification: script }]
    expect(() => verifyNativeSignatures(tx, hash)).toThrow(SignatureVerificationError)
    const other = unsigned(new Uint8Array(20))
    other.sigs = [{ invocation: concatBytes(Uint8Array.of(64), p256.sign(nativeTransactionHash(other), secret)), verification: script }]
    expect(() => verifyNativeSignatures(other, nativeTransactionHash(other))).toThrow(/transaction verify signature fail/)
  })

  it('accepts an Ethereum key with KECCAK256WithECDSA, standing for its Ethereum address', () => {
    const secret = secp256k1.utils.randomSecretKey()
    const pub = secp256k1.getPublicKey(secret, false)
    const script = concatBytes(Uint8Array.of(66, 0x15), pub, Uint8Array.of(0xac))
    const tx = unsigned(keccak256(pub.subarray(1)).subarray(12))
    const hash = nativeTransactionHash(tx)
    const sig = secp256k1.sign(keccak256(hash), secret, { prehash: false })
    tx.sigs = [{ invocation: concatBytes(Uint8Array.of(65, 11), sig), verification: script }]
    expect(verifyNativeSignatures(tx, hash)).toEqual([tx.payer])
  })

  it('checks m-of-n multisig', () => {
    const keys = [p256Key(2), p256Key(3), p256Key(4)].sort((a, b) => toHexRaw(a.pub).localeCompare(toHexRaw(b.pub)))
    const script = concatBytes(Uint8Array.of(0x52), ...keys.map((k) => concatBytes(Uint8Array.of(33), k.pub)), Uint8Array.of(0x53, 0xae))
    expect(parseProgram(script)).toMatchObject({ m: 2 })
    const tx = unsigned(hash160(script))
    const hash = nativeTransactionHash(tx)
    const sigOf = (k: { secret: Uint8Array }) => concatBytes(Uint8Array.of(65, 1), p256.sign(hash, k.secret))
    tx.sigs = [{ invocation: concatBytes(sigOf(keys[0]!), sigOf(keys[2]!)), verification: script }]
    expect(verifyNativeSignatures(tx, hash)).toEqual([tx.payer])
    tx.sigs = [{ invocation: sigOf(keys[1]!), verification: script }]
    expect(() => verifyNativeSignatures(tx, hash)).toThrow(SignatureVerificationError)
  })
})

describe('transactions built by ontology-ts-sdk', () => {
  it('decode, verify, re-encode to the same bytes, and hash to the SDK hash', () => {
    const privateKey = new sdk.Crypto.PrivateKey('b6c00e5e6b0f0d4bc2c1a1b0bde9f2b0d5a8a6e7d1f0c3b2a19080706050403a')
    const from = sdk.Crypto.Address.fromPubKey(privateKey.getPublicKey())
    const to = new sdk.Crypto.Address('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK')
    for (const asset of ['ONT', 'ONG']) {
      const built = sdk.OntAssetTxBuilder.makeTransferTx(asset, from, to, 1234, '2500', '20000')
      sdk.TransactionBuilder.signTransaction(built, privateKey)
      const raw = built.serialize()
      const tx = decode(raw)
      expect(toBase58(tx.payer)).toBe(from.toBase58())
      expect(toHexRaw(encodeNativeTransaction(tx))).toBe(raw)
      const hash = nativeTransactionHash(tx)
      expect(toHexRaw(hash)).toBe(built.getHash())
      expect(verifyNativeSignatures(tx, hash)).toEqual([tx.payer])
    }
  })
})

describe('round trip and fuzzing', () => {
  const transaction = fc.record({
    txType: fc.constantFrom(0xd1, 0xd2, 0xd3, 0xd0),
    nonce: fc.nat({ max: 0xffffffff }),
    gasPrice: fc.bigInt(0n, 2n ** 64n - 1n),
    gasLimit: fc.bigInt(0n, 2n ** 64n - 1n),
    payer: fc.uint8Array({ minLength: 20, maxLength: 20 }),
    code: fc.uint8Array({ maxLength: 300 }),
    text: fc.string({ maxLength: 20 }),
    sigs: fc.array(fc.record({ invocation: fc.uint8Array({ maxLength: 70 }), verification: fc.uint8Array({ maxLength: 40 }) }), { maxLength: 16 }),
  }).map(({ txType, code, text, ...rest }): NativeTransaction => ({
    ...rest,
    txType,
    payload:
      txType === 0xd0
        ? { kind: 'deploy', code, vmFlags: 1, name: text, codeVersion: '1', author: text, email: '', description: text }
        : txType === 0xd3
          ? { kind: 'eip155', rlp: code }
          : { kind: 'invoke', code },
  }))

  it('decode(encode(tx)) = tx', () => {
    fc.assert(
      fc.property(transaction, (tx) => {
        const raw = encodeNativeTransaction(tx)
        const back = decodeNativeTransaction(raw)
        expect(back.length).toBe(raw.length)
        expect(back.tx).toEqual(tx)
      }),
      { numRuns: 300 },
    )
  })

  it('never crashes on random or mutated bytes', () => {
    const valid = fromHex(VECTOR)
    const mutated = fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 }), fc.nat(40)).map(([at, value, cut]) => {
      const copy = valid.slice(0, valid.length - cut)
      if (at < copy.length) copy[at] = value
      return copy
    })
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 400 }), mutated), (bytes) => {
        try {
          const { tx } = decodeNativeTransaction(bytes)
          try {
            verifyNativeSignatures(tx, nativeTransactionHash(tx))
          } catch (err) {
            if (!(err instanceof SignatureVerificationError)) throw err
          }
        } catch (err) {
          if (!(err instanceof InvalidTransactionError)) throw err
        }
      }),
      { numRuns: 5000 },
    )
  })
})
