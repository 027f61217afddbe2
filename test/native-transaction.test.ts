/**
 * The native transaction format (reference §2.1–§2.4, §2.7, §3): decoding, encoding,
 * hashing, signature programs and the node's signature checks — against the SDK's own
 * test vector, transactions built and signed by the real ontology-ts-sdk, round trips
 * and a fuzzed decoder.
 */
import { RLP } from '@ethereumjs/rlp'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { Wallet } from 'ethers'
import fc from 'fast-check'
import { createRequire } from 'node:module'
import type * as Sdk from 'ontology-ts-sdk'
import { describe, expect, it } from 'vitest'
import { toBase58 } from '../src/native/address.ts'
import { InvalidPublicKeyError, parsePublicKey, publicKeyAddress, serializePublicKey } from '../src/native/publicKey.ts'
import { describeSig, InvalidProgramError, multiKeyProgram, parseProgram, SignatureVerificationError, verifyNativeSignatures, verifyNativeTransaction } from '../src/native/program.ts'
import { pushBytes } from '../src/native/script.ts'
import { signingPublicKey, type SigningKey } from '../src/native/signature.ts'
import { p256Address, signNativeTransaction } from '../src/native/signing.ts'
import {
  decodeNativeTransaction,
  encodeNativeTransaction,
  InvalidTransactionError,
  MAX_TX_SIZE,
  nativeTransactionHash,
  unsignedBytes,
  type NativeSig,
  type NativeTransaction,
} from '../src/native/transaction.ts'
import { hash160, keccak256, sha256 } from '../src/util/hash.ts'
import { bigIntToBytes, concatBytes, fromHex, toHexRaw, toReversedHex } from '../src/util/hex.ts'

const sdk = createRequire(import.meta.url)('ontology-ts-sdk') as typeof Sdk

const VECTOR =
  '00d102b56210f401000000000000400d0300000000004f4b954b7057611c02384f5756f6a34f56fc0a597500c66b144f4b954b7057611c02384f5756f6a34f56fc0a596a7cc8145ff0e5382aed9982f2137e1293256a6e9ab1e00c6a7cc80480c3c9016a7cc86c51c1087472616e736665721400000000000000000000000000000000000000020068164f6e746f6c6f67792e4e61746976652e496e766f6b6500014241018ab6942903d54ec88c42d0230b3ce405cd45cca1b9a1faf528b62ecc3f5b3041f2461d37b66e26cfae31ffa688c86206aed725ca7e84c1609890a0f2caebde2f232102981da02fcd82a1647f76935c377f00d5c6d541f346d3abdbb172cf6b9300adc7ac'

const decode = (bytes: Uint8Array | string) => decodeNativeTransaction(typeof bytes === 'string' ? fromHex(bytes) : bytes).tx
const reason = (fn: () => unknown): string => {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(SignatureVerificationError)
    return (err as SignatureVerificationError).reason
  }
  throw new Error('expected a SignatureVerificationError')
}
/** A deterministic private key per seed (valid on both curves: tiny values). */
const secret = (seed: number): Uint8Array => bigIntToBytes(BigInt(seed) * 0x1234567890abcdefn + 7n, 32)
const p256Key = (seed: number): SigningKey => ({ type: 'p256', privateKey: secret(seed) })
const ethKey = (seed: number): SigningKey => ({ type: 'secp256k1', privateKey: secret(seed) })
const unsigned = (payer: Uint8Array, nonce = 7): NativeTransaction => ({
  version: 0,
  txType: 0xd1,
  nonce,
  gasPrice: 2500n,
  gasLimit: 20000n,
  payer,
  payload: { kind: 'invoke', code: Uint8Array.of(0x51) },
  sigs: [],
})
const addressOf = (key: SigningKey) => publicKeyAddress(signingPublicKey(key))

describe('the SDK test vector (reference §2.7)', () => {
  const tx = decode(VECTOR)
  const hash = nativeTransactionHash(tx)

  it('decodes to exactly the stated fields, hash and bytes', () => {
    expect(tx).toMatchObject({ version: 0, txType: 0xd1, nonce: 274904322, gasPrice: 500n, gasLimit: 200000n })
    expect(toBase58(tx.payer)).toBe('AP19aGJ4GWs2qKv3PCt37r6HgM1v7EhgEM')
    expect(tx.payload.kind === 'invoke' && tx.payload.code.length).toBe(117)
    expect(tx.sigs).toHaveLength(1)
    expect(toHexRaw(hash)).toBe('78932ac9bae77b2ccf99a1fa858486a3630c4b69999f18e162f307f74092b988')
    expect(toReversedHex(hash)).toBe('88b99240f707f362e1189f99694b0c63a3868485faa199cf2c7be7bac92a9378')
    expect(toHexRaw(encodeNativeTransaction(tx))).toBe(VECTOR)
    expect(unsignedBytes(tx)).toEqual(fromHex(VECTOR).subarray(0, 161))
  })

  it('its signature verifies and hash160(verification script) is the payer', () => {
    expect(hash160(tx.sigs[0]!.verification)).toEqual(tx.payer)
    expect(parseProgram(tx.sigs[0]!.verification)).toMatchObject({ m: 1, address: tx.payer })
    expect(() => verifyNativeTransaction(tx)).not.toThrow()
    expect(verifyNativeSignatures(tx, hash)).toEqual([tx.payer])
    const { pubKeys, m, sigData } = describeSig(tx.sigs[0]!)
    expect({ pubKeys: pubKeys.map(toHexRaw), m, sigData: sigData.map(toHexRaw) }).toEqual({
      pubKeys: ['02981da02fcd82a1647f76935c377f00d5c6d541f346d3abdbb172cf6b9300adc7'],
      m: 1,
      sigData: [toHexRaw(tx.sigs[0]!.invocation.subarray(1))],
    })
  })

  it('the P-256 signature is ECDSA over SHA-256(raw hash), not over the raw hash as digest', () => {
    const sig = tx.sigs[0]!.invocation.subarray(2)
    const pub = tx.sigs[0]!.verification.subarray(1, 34)
    expect(p256.verify(sig, sha256(hash), pub, { prehash: false, lowS: false })).toBe(true)
    expect(p256.verify(sig, hash, pub, { prehash: false, lowS: false })).toBe(false)
  })

  it('is refused truncated at every offset, naming the offset; trailing bytes are ignored', () => {
    const bytes = fromHex(VECTOR)
    for (let n = 0; n < bytes.length; n++) {
      let caught: unknown
      try {
        decodeNativeTransaction(bytes.subarray(0, n))
      } catch (err) {
        caught = err
      }
      expect(caught, `cut at ${n}`).toBeInstanceOf(InvalidTransactionError)
      expect((caught as InvalidTransactionError).message).toMatch(/^unexpected end of data.* at offset \d+$/)
      expect((caught as InvalidTransactionError).code).toBe(43001)
    }
    const padded = decodeNativeTransaction(concatBytes(bytes, Uint8Array.of(1, 2, 3)))
    expect(padded.length).toBe(bytes.length)
    expect(padded.tx).toEqual(tx)
  })
})

describe('decoder rules (reference §2.1, §1.5)', () => {
  const base = fromHex(VECTOR)
  const mutate = (at: number, value: number) => {
    const copy = base.slice()
    copy[at] = value
    return copy
  }
  const refused = (bytes: Uint8Array, message: RegExp) => {
    expect(() => decodeNativeTransaction(bytes)).toThrow(InvalidTransactionError)
    expect(() => decodeNativeTransaction(bytes)).toThrow(message)
  }

  it('refuses version ≠ 0, unknown types, attributes and 17 signatures', () => {
    refused(mutate(0, 1), /^unsupported transaction version 1$/)
    refused(mutate(1, 0x05), /^unsupported transaction type 0x5$/)
    refused(mutate(1, 0xd4), /^unsupported transaction type 0xd4$/)
    // The attribute count follows the 117-byte code: 1+1+4+8+8+20+1+117 = 160.
    refused(mutate(160, 1), /attribute count must be 0, got 1/)
    const sig = decode(VECTOR).sigs[0]!
    const withSigs = (n: number) => encodeNativeTransaction({ ...decode(VECTOR), sigs: Array.from({ length: n }, () => sig) })
    expect(decode(withSigs(16)).sigs).toHaveLength(16)
    refused(withSigs(17), /too many signatures \(17, at most 16\)/)
  })

  it('refuses non-minimal var-ints ("irregular") in every var-int position', () => {
    const irregular = (at: number, form: number[]) => concatBytes(base.subarray(0, at), Uint8Array.from(form), base.subarray(at + 1))
    refused(irregular(42, [0xfd, 0x75, 0x00]), /^irregular varint at offset 42$/) // code length
    refused(irregular(42, [0xfe, 0x75, 0, 0, 0]), /irregular varint/)
    refused(irregular(42, [0xff, 0x75, 0, 0, 0, 0, 0, 0, 0]), /irregular varint/)
    refused(irregular(160, [0xfd, 0, 0]), /irregular varint at offset 160/) // attributes
    refused(irregular(161, [0xfd, 1, 0]), /irregular varint at offset 161/) // sig count
    refused(irregular(162, [0xfd, 0x42, 0]), /irregular varint at offset 162/) // invocation length
  })

  it('refuses lengths beyond the data without allocating them, and inputs over 1 MiB', () => {
    const huge = concatBytes(base.subarray(0, 42), Uint8Array.of(0xff, 0, 0, 0, 0, 0, 0, 0, 0x10))
    refused(huge, /var-bytes length 1152921504606846976 exceeds the 0 bytes left at offset 42/)
    refused(new Uint8Array(MAX_TX_SIZE + 1), /larger than 1048576 bytes/)
  })

  it('attaches the low-level error as the cause', () => {
    try {
      decodeNativeTransaction(base.subarray(0, 10))
      expect.unreachable()
    } catch (err) {
      expect((err as Error).cause).toMatchObject({ name: 'DecodeError', offset: 6 })
    }
  })

  it('decodes deploy payloads and refuses what validateDeployCode refuses', () => {
    const deploy: NativeTransaction = {
      ...unsigned(new Uint8Array(20).fill(9)),
      txType: 0xd0,
      gasLimit: 20_000_000n,
      payload: { kind: 'deploy', code: Uint8Array.of(0x51, 0x66), vmFlags: 1, name: 'n\u00e9', codeVersion: '1.0', author: '\ufeffme', email: 'a@b', description: 'd' },
    }
    const raw = encodeNativeTransaction(deploy)
    expect(decodeNativeTransaction(raw)).toEqual({ tx: deploy, length: raw.length })
    const vmAt = 1 + 1 + 4 + 8 + 8 + 20 + 3
    expect(raw[vmAt]).toBe(1)
    const bad = raw.slice()
    bad[vmAt] = 2
    refused(bad, /invalid vm flags: 2/)
    refused(encodeNativeTransaction({ ...deploy, payload: { ...deploy.payload, name: 'x'.repeat(253) } as typeof deploy.payload }), /name too long/)
    const notUtf8 = raw.slice()
    notUtf8[vmAt + 2] = 0xff // first byte of the name
    refused(notUtf8, /deploy name at offset \d+ is not valid UTF-8/)
  })
})

describe('signature checks (reference §2.2, §3)', () => {
  const vector = decode(VECTOR)

  it('accepts a bare 64-byte P-256 signature (as the Go node emits)', () => {
    const sig = vector.sigs[0]!
    const bare = { ...vector, sigs: [{ ...sig, invocation: concatBytes(Uint8Array.of(64), sig.invocation.subarray(2)) }] }
    expect(bare.sigs[0]!.invocation).toHaveLength(65)
    expect(verifyNativeSignatures(bare)).toEqual([vector.payer])
  })

  it('refuses a wrong signature with code 45021 and the node text', () => {
    const sig = vector.sigs[0]!
    const bad = sig.invocation.slice()
    bad[20]! ^= 1
    const tx = { ...vector, sigs: [{ ...sig, invocation: bad }] }
    expect(() => verifyNativeTransaction(tx)).toThrow(SignatureVerificationError)
    try {
      verifyNativeTransaction(tx)
    } catch (err) {
      expect(err).toMatchObject({ code: 45021, message: 'transaction verify signature fail', reason: 'signature verification failed' })
    }
  })

  it('refuses a payer that is not among the signers, and an unsigned transaction', () => {
    const other = signNativeTransaction(unsigned(new Uint8Array(20)), [p256Key(1)])
    expect(reason(() => verifyNativeTransaction(other))).toBe('signature missing for payer: AFmseVrdL9f9oyCzZefL9tG6UbvhPbdYzM')
    expect(reason(() => verifyNativeTransaction(unsigned(new Uint8Array(20))))).toMatch(/signature missing for payer/)
  })

  it('checks m-of-n: m > n, fewer sigs than m, and a sig by a non-member', () => {
    const keys = [p256Key(2), p256Key(3), p256Key(4)]
    const pubs = keys.map((k) => serializePublicKey(signingPublicKey(k)))
    const program = multiKeyProgram(keys.map(signingPublicKey), 2)
    const tx = signNativeTransaction(unsigned(hash160(program)), [keys[0]!, keys[2]!], { m: 2, publicKeys: pubs })
    expect(verifyNativeSignatures(tx)).toEqual([hash160(program)])
    // The node reads m keys before n, so m > n fails as a missing key or as a count mismatch; m = 0 as a bad param.
    const withProgram = (verification: Uint8Array) => ({ ...tx, sigs: [{ invocation: tx.sigs[0]!.invocation, verification }] })
    const mOverN = concatBytes(Uint8Array.of(0x53), pushBytes(pubs[0]!), pushBytes(pubs[1]!), Uint8Array.of(0x52, 0xae))
    expect(() => parseProgram(mOverN)).toThrow(InvalidProgramError)
    expect(reason(() => verifyNativeTransaction(withProgram(mOverN)))).toBe('unexpected opcode 0x52 at offset 69')
    const nTooSmall = concatBytes(Uint8Array.of(0x53), ...pubs.map(pushBytes), Uint8Array.of(0x52, 0xae))
    expect(reason(() => verifyNativeTransaction(withProgram(nTooSmall)))).toBe('number of pubkeys unmatched, expected: 2, got: 3')
    const mZero = concatBytes(Uint8Array.of(0x00), ...pubs.map(pushBytes), Uint8Array.of(0x53, 0xae))
    expect(reason(() => verifyNativeTransaction(withProgram(mZero)))).toBe('wrong multi-sig param')
    const oneSig = { invocation: tx.sigs[0]!.invocation.subarray(0, 66), verification: program }
    expect(reason(() => verifyNativeTransaction({ ...tx, sigs: [oneSig] }))).toBe('wrong tx sig param length')
    const stranger = signNativeTransaction(tx, [p256Key(9)]).sigs[0]!.invocation
    const twoWithStranger = { invocation: concatBytes(tx.sigs[0]!.invocation.subarray(0, 66), stranger), verification: program }
    expect(reason(() => verifyNativeTransaction({ ...tx, sigs: [twoWithStranger] }))).toBe('multi-signature verification failed')
    // Only the first m signatures are checked, as VerifyMultiSignature does.
    const extra = { invocation: concatBytes(tx.sigs[0]!.invocation, pushBytes(Uint8Array.of(1, 2, 3))), verification: program }
    expect(verifyNativeSignatures({ ...tx, sigs: [extra] })).toEqual([hash160(program)])
  })

  it('derives the multisig address from keys sorted by X, whatever the script order', () => {
    // Find three keys whose X order differs from the byte order of their compressed form.
    let seed = 10
    const keys: SigningKey[] = []
    while (keys.length < 3 || new Set(keys.map((k) => serializePublicKey(signingPublicKey(k))[0])).size < 2) keys.push(p256Key(seed++))
    const pubs = keys.map((k) => serializePublicKey(signingPublicKey(k)))
    const byX = [...pubs].sort((a, b) => (toHexRaw(a.subarray(1)) < toHexRaw(b.subarray(1)) ? -1 : 1))
    const sorted = multiKeyProgram(keys.map(signingPublicKey), 1)
    expect(parseProgram(sorted).keys.map((k) => toHexRaw(serializePublicKey(k)))).toEqual(byX.map(toHexRaw))
    const reversed = concatBytes(Uint8Array.of(0x51), ...[...byX].reverse().map(pushBytes), Uint8Array.of(0x50 + pubs.length, 0xae))
    expect(parseProgram(reversed).address).toEqual(hash160(sorted))
  })

  it('refuses unsupported key types with a clear reason', () => {
    const sm2 = concatBytes(Uint8Array.of(0x13, 0x14), new Uint8Array(33).fill(2))
    const ed25519 = concatBytes(Uint8Array.of(0x14, 0x19), new Uint8Array(32))
    expect(() => parsePublicKey(sm2)).toThrow(/unsupported key type 0x13 \(SM2\)/)
    expect(() => parsePublicKey(ed25519)).toThrow(InvalidPublicKeyError)
    expect(() => parsePublicKey(concatBytes(Uint8Array.of(0x12, 0x05), new Uint8Array(33)))).toThrow(/unsupported ECDSA curve label 5/)
    const tx = { ...vector, sigs: [{ invocation: vector.sigs[0]!.invocation, verification: concatBytes(pushBytes(sm2), Uint8Array.of(0xac)) }] }
    expect(reason(() => verifyNativeTransaction(tx))).toMatch(/unsupported key type 0x13 \(SM2\)/)
  })

  it('accepts the other P-256 key encodings the node reads, with the canonical address', () => {
    const key = signingPublicKey(p256Key(5))
    const canonical = publicKeyAddress(key)
    const labelled = concatBytes(Uint8Array.of(0x12, 0x02), serializePublicKey(key))
    for (const encoded of [key.point, labelled]) {
      const tx = signNativeTransaction(unsigned(canonical), [p256Key(5)])
      tx.sigs[0] = { ...tx.sigs[0]!, verification: concatBytes(pushBytes(encoded), Uint8Array.of(0xac)) }
      expect(verifyNativeSignatures(tx)).toEqual([canonical])
    }
    expect(p256Address(serializePublicKey(key))).toEqual(canonical)
  })

  it('accepts high-S P-256 signatures (Go ecdsa.Verify) but refuses high-S secp256k1 ones', () => {
    const tx = signNativeTransaction(unsigned(addressOf(p256Key(6))), [p256Key(6)])
    const highS = (sig: Uint8Array, n: bigint) => {
      const s = BigInt(`0x${toHexRaw(sig.subarray(33, 65))}`)
      return concatBytes(sig.subarray(0, 33), bigIntToBytes(n - s, 32), sig.subarray(65))
    }
    const p = tx.sigs[0]!.invocation.subarray(1)
    expect(verifyNativeSignatures({ ...tx, sigs: [{ ...tx.sigs[0]!, invocation: pushBytes(highS(p, p256.Point.CURVE().n)) }] })).toEqual([tx.payer])
    const eth = signNativeTransaction(unsigned(addressOf(ethKey(6))), [ethKey(6)])
    const e = eth.sigs[0]!.invocation.subarray(1)
    expect(reason(() => verifyNativeTransaction({ ...eth, sigs: [{ ...eth.sigs[0]!, invocation: pushBytes(highS(e, secp256k1.Point.CURVE().n)) }] }))).toBe('signature verification failed')
  })

  it('Ethereum keys (0x15 ‖ 65 bytes, scheme 0x0b) sign the raw hash itself and stand for their Ethereum address', () => {
    // ontology-ts-sdk 1.2.0 has no secp256k1 curve, no key type 0x15 and no KECCAK256 scheme: built with noble.
    const key = ethKey(7)
    const wallet = new Wallet(`0x${toHexRaw(key.privateKey)}`)
    const payer = fromHex(wallet.address)
    const tx = signNativeTransaction(unsigned(payer), [key])
    const { invocation, verification } = tx.sigs[0]!
    expect(verification).toHaveLength(1 + 66 + 1)
    expect(verification.subarray(0, 3)).toEqual(Uint8Array.of(0x42, 0x15, 0x04))
    expect(invocation).toHaveLength(1 + 66)
    expect(invocation[1]).toBe(0x0b)
    expect(verifyNativeSignatures(tx)).toEqual([payer])
    const hash = nativeTransactionHash(tx)
    expect(secp256k1.verify(invocation.subarray(2, 66), hash, signingPublicKey(key).point, { prehash: false })).toBe(true)
    // 65 bytes (no v) verify too; a signature over keccak256(hash) does not.
    expect(verifyNativeSignatures({ ...tx, sigs: [{ verification, invocation: pushBytes(invocation.subarray(1, 66)) }] })).toEqual([payer])
    const overKeccak = concatBytes(Uint8Array.of(0x0b), secp256k1.sign(keccak256(hash), key.privateKey, { prehash: false }))
    expect(reason(() => verifyNativeTransaction({ ...tx, sigs: [{ verification, invocation: pushBytes(overKeccak) }] }))).toBe('signature verification failed')
    // A P-256 scheme byte on an Ethereum key does not verify.
    const wrongScheme = concatBytes(Uint8Array.of(0x01), invocation.subarray(2, 66))
    expect(reason(() => verifyNativeTransaction({ ...tx, sigs: [{ verification, invocation: pushBytes(wrongScheme) }] }))).toBe('signature verification failed')
  })

  it('signs mixed P-256 / Ethereum multisigs, keys sorted P-256 first', () => {
    const keys = [ethKey(8), p256Key(8), p256Key(9)]
    const pubs = keys.map((k) => serializePublicKey(signingPublicKey(k)))
    const program = multiKeyProgram(keys.map(signingPublicKey), 2)
    const tx = signNativeTransaction(unsigned(hash160(program)), [keys[0]!, keys[2]!], { m: 2, publicKeys: pubs })
    expect(tx.sigs[0]!.verification).toEqual(program)
    expect(parseProgram(program).keys.map((k) => k.type)).toEqual(['p256', 'p256', 'secp256k1'])
    expect(verifyNativeSignatures(tx)).toEqual([hash160(program)])
  })
})

describe('transactions built and signed by ontology-ts-sdk', () => {
  const hexKey = (seed: number) => toHexRaw(secret(seed))
  const sdkKey = (seed: number) => new sdk.Crypto.PrivateKey(hexKey(seed))
  const to = new sdk.Crypto.Address('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK')

  const check = (built: Sdk.Transaction, payer: string) => {
    const raw = built.serialize()
    const tx = decode(raw)
    expect(toBase58(tx.payer)).toBe(payer)
    expect(toHexRaw(encodeNativeTransaction(tx))).toBe(raw)
    expect(toHexRaw(nativeTransactionHash(tx))).toBe(built.getHash())
    expect(() => verifyNativeTransaction(tx)).not.toThrow()
    return tx
  }

  it('single-key transfers of both tokens: decode, verify, re-encode, hash; our signer gives the same bytes', () => {
    const key = sdkKey(1)
    const from = sdk.Crypto.Address.fromPubKey(key.getPublicKey())
    expect(toBase58(p256Address(fromHex(key.getPublicKey().serializeHex())))).toBe(from.toBase58())
    for (const asset of ['ONT', 'ONG']) {
      const built = sdk.OntAssetTxBuilder.makeTransferTx(asset, from, to, 1234, '2500', '20000')
      sdk.TransactionBuilder.signTransaction(built, key)
      const tx = check(built, from.toBase58())
      expect(verifyNativeSignatures(tx)).toEqual([tx.payer])
      // Both sides use RFC 6979 deterministic ECDSA with low S: identical signatures.
      const ours = signNativeTransaction({ ...tx, sigs: [] }, [p256Key(1)])
      expect(toHexRaw(encodeNativeTransaction(ours))).toBe(built.serialize())
    }
  })

  it('a separate payer via addSign: two single-key entries', () => {
    const fromKey = sdkKey(2)
    const payerKey = sdkKey(3)
    const from = sdk.Crypto.Address.fromPubKey(fromKey.getPublicKey())
    const payer = sdk.Crypto.Address.fromPubKey(payerKey.getPublicKey())
    const built = sdk.OntAssetTxBuilder.makeTransferTx('ONG', from, to, 5, '500', '20000', payer)
    sdk.TransactionBuilder.signTransaction(built, fromKey)
    sdk.TransactionBuilder.addSign(built, payerKey)
    const tx = check(built, payer.toBase58())
    expect(verifyNativeSignatures(tx).map(toBase58)).toEqual([from.toBase58(), payer.toBase58()])
  })

  it('a 2-of-3 multisig via signTx: the SDK orders keys by X and sigs by hex, as the node and our signer do', () => {
    for (let round = 0; round < 4; round++) {
      const keys = [sdkKey(20 + round * 3), sdkKey(21 + round * 3), sdkKey(22 + round * 3)]
      const pubKeys = keys.map((k) => k.getPublicKey())
      const address = sdk.Crypto.Address.fromMultiPubKeys(2, [...pubKeys])
      const built = sdk.OntAssetTxBuilder.makeTransferTx('ONT', address, to, 1, '0', '20000')
      sdk.TransactionBuilder.signTx(built, 2, [...pubKeys], keys[2]!)
      sdk.TransactionBuilder.signTx(built, 2, [...pubKeys], keys[0]!)
      const tx = check(built, address.toBase58())
      const program = parseProgram(tx.sigs[0]!.verification)
      const xs = program.keys.map((k) => toHexRaw(k.point.subarray(1, 33)))
      expect(xs).toEqual([...xs].sort())
      expect(program.address).toEqual(tx.payer)
      const ours = signNativeTransaction({ ...tx, sigs: [] }, [p256Key(20 + round * 3), p256Key(22 + round * 3)], {
        m: 2,
        publicKeys: pubKeys.map((k) => fromHex(k.serializeHex())),
      })
      expect(toHexRaw(encodeNativeTransaction(ours))).toBe(built.serialize())
    }
  })
})

/** A signed legacy transaction (RLP) for the 0xd3 envelope. */
function signedLegacy(key: Uint8Array, f: { nonce: bigint; gasPrice: bigint; gas: bigint; to: Uint8Array; value: bigint; data: Uint8Array }, chainId = 12345n): Uint8Array {
  const int = (v: bigint) => (v === 0n ? new Uint8Array(0) : bigIntToBytes(v, Math.ceil(v.toString(16).length / 2)))
  const body = [int(f.nonce), int(f.gasPrice), int(f.gas), f.to, int(f.value), f.data]
  const digest = keccak256(RLP.encode([...body, int(chainId), new Uint8Array(0), new Uint8Array(0)]))
  const sig = secp256k1.sign(digest, key, { prehash: false, format: 'recovered' })
  return RLP.encode([...body, int(chainId * 2n + 35n + BigInt(sig[0]!)), int(BigInt(`0x${toHexRaw(sig.subarray(1, 33))}`)), int(BigInt(`0x${toHexRaw(sig.subarray(33))}`))])
}
const envelope = (rlp: Uint8Array) => concatBytes(Uint8Array.of(0x00, 0xd3), new Uint8Array(encodeVarint(rlp.length)), rlp)
const encodeVarint = (n: number) => (n < 0xfd ? [n] : [0xfd, n & 0xff, n >> 8])

describe('EIP-155 envelopes (TxType 0xd3, reference §2.4)', () => {
  it('derive nonce, gwei price, gas limit and payer from an ethers-signed transaction; hash = Ethereum hash', async () => {
    const wallet = new Wallet(`0x${toHexRaw(secret(30))}`)
    const signed = await wallet.signTransaction({ type: 0, chainId: 12345, nonce: 3, gasPrice: 2_500_000_000_000n, gasLimit: 21000, to: wallet.address, value: 5n })
    const raw = envelope(fromHex(signed))
    const { tx, length } = decodeNativeTransaction(concatBytes(raw, Uint8Array.of(9)))
    expect(length).toBe(raw.length)
    expect(tx).toMatchObject({ version: 0, txType: 0xd3, nonce: 3, gasPrice: 2500n, gasLimit: 21000n, sigs: [], payload: { kind: 'eip155', chainId: 12345n } })
    expect(toHexRaw(tx.payer)).toBe(wallet.address.slice(2).toLowerCase())
    expect(toHexRaw(nativeTransactionHash(tx))).toBe(toHexRaw(keccak256(fromHex(signed))))
    expect(encodeNativeTransaction(tx)).toEqual(raw)
    expect(verifyNativeSignatures(tx)).toEqual([tx.payer])
    expect(reason(() => verifyNativeTransaction({ ...tx, payer: new Uint8Array(20) }))).toBe('EIP-155 sender is not the payer')
  })

  it('refuses what the node refuses: typed transactions, non-gwei prices, bad signatures', async () => {
    const key = secret(31)
    const base = { nonce: 1n, gasPrice: 1_000_000_000n, gas: 21000n, to: new Uint8Array(20), value: 0n, data: new Uint8Array(0) }
    const wallet = new Wallet(`0x${toHexRaw(key)}`)
    const typed = await wallet.signTransaction({ type: 2, chainId: 12345, nonce: 0, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, gasLimit: 21000, to: wallet.address })
    expect(() => decodeNativeTransaction(envelope(fromHex(typed)))).toThrow(/typed transactions are not supported/)
    expect(() => decodeNativeTransaction(envelope(signedLegacy(key, { ...base, gasPrice: 1_500_000_000n })))).toThrow(/gasprice 1500000000 is not multiple of GWei/)
    expect(() => decodeNativeTransaction(envelope(signedLegacy(key, { ...base, nonce: 2n ** 32n })))).toThrow(/too big/)
    const good = signedLegacy(key, base)
    // Changing r or s just recovers another sender; an impossible v or a high s is refused.
    const fields = RLP.decode(good) as Uint8Array[]
    const badV = RLP.encode([...fields.slice(0, 6), Uint8Array.of(29), ...fields.slice(7)])
    expect(() => decodeNativeTransaction(envelope(badV))).toThrow(/^invalid transaction v, r, s values$/)
    const highS = bigIntToBytes(secp256k1.Point.CURVE().n - BigInt(`0x${toHexRaw(fields[8]!)}`), 32)
    expect(() => decodeNativeTransaction(envelope(RLP.encode([...fields.slice(0, 8), highS])))).toThrow(/invalid transaction v, r, s values/)
    expect(() => decodeNativeTransaction(envelope(concatBytes(good, Uint8Array.of(0))))).toThrow(/^rlp: /)
    expect(decode(envelope(good)).payer).toEqual(fromHex(wallet.address))
  })
})

/**
 * The bound is the test's time limit, not a figure in milliseconds (which a busy
 * machine breaks): a decoder or verifier that went quadratic in these inputs would
 * take hours on them (hundreds of thousands of nesting levels or pushes), not the
 * tens of milliseconds a linear one takes.
 */
describe('hostile 1 MiB inputs stay cheap', () => {
  const big = MAX_TX_SIZE - 300
  /** Decodes and verifies `raw`; only the two errors of bad input may come out. */
  const survives = (raw: Uint8Array) => {
    try {
      verifyNativeSignatures(decodeNativeTransaction(raw).tx)
    } catch (err) {
      if (!(err instanceof InvalidTransactionError) && !(err instanceof SignatureVerificationError)) throw err
    }
    return true
  }

  it('deeply nested RLP in an EIP-155 envelope', () => {
    const buf = new Uint8Array(big)
    let pos = big - 1
    buf[pos] = 0x80
    for (;;) {
      const len = big - pos
      const lenBytes = len <= 55 ? [] : Array.from(bigIntToBytes(BigInt(len), Math.ceil(len.toString(16).length / 2)))
      const prefix = len <= 55 ? [0xc0 + len] : [0xf7 + lenBytes.length, ...lenBytes]
      if (pos - prefix.length < 0) break
      pos -= prefix.length
      buf.set(prefix, pos)
    }
    expect(survives(envelope(buf.subarray(pos)))).toBe(true)
  })

  it('half a million signature pushes, and a multisig padded with PUSH1s', () => {
    const key = serializePublicKey(signingPublicKey(p256Key(60)))
    const pushes = { ...unsigned(new Uint8Array(20)), sigs: [{ invocation: new Uint8Array(big).fill(0x01), verification: concatBytes(pushBytes(key), Uint8Array.of(0xac)) }] }
    expect(survives(encodeNativeTransaction(pushes))).toBe(true)
    const padded = concatBytes(Uint8Array.of(0x52), pushBytes(key), pushBytes(key), new Uint8Array(big).fill(0x51), Uint8Array.of(0xae))
    expect(survives(encodeNativeTransaction({ ...pushes, sigs: [{ invocation: new Uint8Array(0), verification: padded }] }))).toBe(true)
  })
})

describe('round trip and fuzzing', () => {
  const payer = fc.uint8Array({ minLength: 20, maxLength: 20 })
  const sigEntry: fc.Arbitrary<NativeSig> = fc.record({ invocation: fc.uint8Array({ maxLength: 140 }), verification: fc.uint8Array({ maxLength: 300 }) })
  const text = (max: number) => fc.string({ unit: 'grapheme', maxLength: max }).filter((s) => new TextEncoder().encode(s).length <= max)
  const legacyKey = secret(40)
  const legacy = fc
    .record({
      nonce: fc.bigInt(0n, 2n ** 32n - 1n),
      gwei: fc.bigInt(0n, (2n ** 64n - 1n) / 1_000_000_000n),
      gas: fc.bigInt(0n, 2n ** 64n - 1n),
      value: fc.bigInt(0n, 2n ** 80n),
      data: fc.uint8Array({ maxLength: 40 }),
      create: fc.boolean(),
    })
    .map(({ gwei, create, ...f }) => signedLegacy(legacyKey, { ...f, gasPrice: gwei * 1_000_000_000n, to: create ? new Uint8Array(0) : new Uint8Array(20).fill(1) }))
  const native: fc.Arbitrary<NativeTransaction> = fc.oneof(
    fc.record({
      version: fc.constant(0 as const),
      txType: fc.constantFrom(0xd1 as const, 0xd2 as const),
      nonce: fc.nat({ max: 0xffffffff }),
      gasPrice: fc.bigInt(0n, 2n ** 64n - 1n),
      gasLimit: fc.bigInt(0n, 2n ** 64n - 1n),
      payer,
      payload: fc.record({ kind: fc.constant('invoke' as const), code: fc.uint8Array({ maxLength: 400 }) }),
      sigs: fc.array(sigEntry, { maxLength: 16 }),
    }),
    fc.record({
      version: fc.constant(0 as const),
      txType: fc.constant(0xd0 as const),
      nonce: fc.nat({ max: 0xffffffff }),
      gasPrice: fc.bigInt(0n, 2n ** 64n - 1n),
      gasLimit: fc.bigInt(0n, 2n ** 64n - 1n),
      payer,
      payload: fc.record({
        kind: fc.constant('deploy' as const),
        code: fc.uint8Array({ maxLength: 300 }),
        vmFlags: fc.constantFrom(0, 1, 3),
        name: text(252),
        codeVersion: text(20),
        author: text(20),
        email: text(20),
        description: text(300),
      }),
      sigs: fc.array(sigEntry, { maxLength: 3 }),
    }),
  )

  it('decode(encode(tx)) = tx for every type, and the length is the encoding', () => {
    fc.assert(
      fc.property(native, (tx) => {
        const raw = encodeNativeTransaction(tx)
        expect(decodeNativeTransaction(raw)).toEqual({ tx, length: raw.length })
      }),
      { numRuns: 400 },
    )
    fc.assert(
      fc.property(legacy, (rlp) => {
        const raw = envelope(rlp)
        const { tx, length } = decodeNativeTransaction(raw)
        expect(length).toBe(raw.length)
        expect(encodeNativeTransaction(tx)).toEqual(raw)
        expect(tx.payer).toEqual(publicKeyAddress(signingPublicKey({ type: 'secp256k1', privateKey: legacyKey })))
      }),
      { numRuns: 60 },
    )
  })

  // Quickly: 6,000 inputs of up to 400 bytes within the test's time limit; a length
  // prefix taken on trust (gigabytes allocated) fails as a RangeError or runs out of it.
  it('a fuzzed decoder only ever returns a transaction or throws InvalidTransactionError, quickly', () => {
    const sdkTx = sdk.OntAssetTxBuilder.makeTransferTx(
      'ONT',
      new sdk.Crypto.Address('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK'),
      new sdk.Crypto.Address('AFmseVrdL9f9oyCzZefL9tG6UbviEH9ugK'),
      1,
      '0',
      '20000',
    )
    const keys = [p256Key(50), p256Key(51), ethKey(52)]
    const multi = signNativeTransaction(unsigned(new Uint8Array(20)), keys.slice(0, 2), { m: 2, publicKeys: keys.map((k) => serializePublicKey(signingPublicKey(k))) })
    const seeds = [
      fromHex(VECTOR),
      fromHex(sdkTx.serialize()),
      encodeNativeTransaction(multi),
      encodeNativeTransaction(signNativeTransaction(unsigned(new Uint8Array(20)), [ethKey(53)])),
      encodeNativeTransaction({
        ...unsigned(new Uint8Array(20)),
        txType: 0xd0,
        payload: { kind: 'deploy', code: Uint8Array.of(1), vmFlags: 3, name: 'a', codeVersion: 'b', author: 'c', email: 'd', description: 'e' },
      }),
      envelope(signedLegacy(legacyKey, { nonce: 1n, gasPrice: 10n ** 9n, gas: 21000n, to: new Uint8Array(20), value: 1n, data: Uint8Array.of(1, 2) })),
    ]
    const mutated = fc
      .tuple(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(8), fc.uint8Array({ maxLength: 4 }))
      .map(([seed, edits, cut, inserted]) => {
        const copy = seed.slice(0, Math.max(0, seed.length - cut))
        for (const [at, value] of edits) if (copy.length > 0) copy[at % copy.length] = value
        const at = edits[0]![0] % (copy.length + 1)
        return concatBytes(copy.subarray(0, at), inserted, copy.subarray(at))
      })
    const input = fc.oneof(
      fc.uint8Array({ maxLength: 400 }),
      fc.uint8Array({ minLength: 2, maxLength: 60 }).map((b) => concatBytes(Uint8Array.of(0, b[0]! % 4 === 0 ? 0xd3 : 0xd1), b)),
      mutated,
    )
    let decoded = 0
    fc.assert(
      fc.property(input, (bytes) => {
        try {
          const { tx, length } = decodeNativeTransaction(bytes)
          decoded++
          expect(length).toBeLessThanOrEqual(bytes.length)
          expect(encodeNativeTransaction(tx)).toEqual(bytes.subarray(0, length))
          try {
            verifyNativeSignatures(tx)
          } catch (err) {
            if (!(err instanceof SignatureVerificationError)) throw err
          }
          tx.sigs.forEach(describeSig)
        } catch (err) {
          if (!(err instanceof InvalidTransactionError)) throw err
        }
      }),
      { numRuns: 6000 },
    )
    expect(decoded).toBeGreaterThan(100)
  })
})
