/**
 * Signed legacy (EIP-155) transactions, decoded once: RLP fields, hash and sender,
 * with the real node's stateless rules (reference §2.4, §6.5 steps 1-2). The ledger,
 * the pool, the executor and both surfaces read this one object; nothing re-decodes
 * or re-hashes it.
 */
import { RLP } from '@ethereumjs/rlp'
import { GWEI } from '../core/constants.ts'
import { LEGACY_ONLY_HINT, TransactionRejectedError } from '../core/errors.ts'
import { keccak256 } from '../util/hash.ts'
import { memoKeccak256 } from './memoKeccak.ts'
import { bigIntToMinimalBytes, bytesToBigInt } from '../util/hex.ts'
import { libsecp256k1, recoverPublicKey, validSignatureValues } from '../util/secp256k1.ts'

/** The fields a sender chooses. Amounts in wei. */
export interface LegacyTransactionFields {
  readonly nonce: bigint
  /** Wei per gas. */
  readonly gasPrice: bigint
  readonly gasLimit: bigint
  /** 20 bytes; `undefined` for a contract creation. */
  readonly to: Uint8Array | undefined
  /** Wei. */
  readonly value: bigint
  readonly data: Uint8Array
}

/** A signed legacy transaction with everything derived from it. */
export interface LegacyTransaction extends LegacyTransactionFields {
  /** EIP-155 `v`: chainId × 2 + 35 + recovery id. */
  readonly v: bigint
  readonly r: bigint
  readonly s: bigint
  /** The signed RLP, as received. */
  readonly rlp: Uint8Array
  /** keccak256(rlp): the Ethereum transaction hash (raw byte order). */
  readonly hash: Uint8Array
  /** Recovered sender, 20 bytes. */
  readonly from: Uint8Array
}

const MAX_U32 = 0xffffffffn
const MAX_U64 = 2n ** 64n - 1n
const EMPTY = new Uint8Array(0)

/**
 * Decodes `raw` (RLP of a signed legacy transaction) and applies the real node's
 * stateless rules: legacy only (typed transactions are not supported, as with the
 * node's go-ethereum 1.9.25), canonical integers, EIP-155 chain id equal to `chainId`,
 * gas price a whole number of gwei, nonce within u32, a signature in range (low s,
 * EIP-2) from which a sender recovers.
 * Throws {@link TransactionRejectedError} with the node's message text.
 */
export function decodeLegacyTransaction(raw: Uint8Array, chainId: bigint): LegacyTransaction {
  if (raw.length === 0) throw new TransactionRejectedError('rlp: value size exceeds available input length')
  if (raw[0]! <= 0x7f) {
    throw new TransactionRejectedError(`rlp: expected input list for types.txdata: typed transaction (type ${raw[0]}) not supported; ${LEGACY_ONLY_HINT}`)
  }
  let fields: Uint8Array[]
  try {
    const decoded = RLP.decode(raw)
    if (!Array.isArray(decoded) || decoded.length !== 9 || decoded.some((f) => !(f instanceof Uint8Array))) {
      throw new Error('expected a list of 9 fields for a legacy transaction')
    }
    fields = decoded as Uint8Array[]
  } catch (err) {
    throw new TransactionRejectedError(`rlp: ${(err as Error).message}`, { cause: err })
  }
  const [nonceB, gasPriceB, gasLimitB, toB, valueB, data, vB, rB, sB] = fields as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array]
  for (const integer of [nonceB, gasPriceB, gasLimitB, valueB, vB, rB, sB]) {
    if (integer.length > 0 && integer[0] === 0) throw new TransactionRejectedError('rlp: non-canonical integer (leading zero bytes)')
  }
  if (toB.length !== 0 && toB.length !== 20) throw new TransactionRejectedError(`rlp: input string of ${toB.length} bytes for a 20-byte address`)
  if (gasLimitB.length > 8) throw new TransactionRejectedError('rlp: input string too long for uint64')
  const v = bytesToBigInt(vB)
  const txChainId = v >= 35n ? (v - 35n) / 2n : 0n
  if (txChainId !== chainId) throw new TransactionRejectedError(`invalid chain id, want: ${chainId}, got: ${txChainId}`)
  const nonce = bytesToBigInt(nonceB)
  const gasPrice = bytesToBigInt(gasPriceB)
  checkNativeFields(nonce, gasPrice)
  const r = bytesToBigInt(rB)
  const s = bytesToBigInt(sB)
  const message = keccak256(signingPayload(raw, chainId))
  const from = recoverSender(message, Number(v - 35n - chainId * 2n), r, s)
  return {
    nonce,
    gasPrice,
    gasLimit: bytesToBigInt(gasLimitB),
    to: toB.length === 0 ? undefined : toB,
    value: bytesToBigInt(valueB),
    data,
    v,
    r,
    s,
    rlp: raw,
    hash: keccak256(raw),
    from,
  }
}

/** The RLP of an EIP-155 chain id followed by two empty strings, the tail of a signing payload; of the last chain id asked. */
let tail: { chainId: bigint; bytes: Uint8Array } | undefined

/**
 * The EIP-155 signing payload of `raw`, a signed legacy transaction that RLP.decode
 * accepted as a list of nine strings: RLP([nonce, gasPrice, gasLimit, to, value, data,
 * chainId, '', '']). The first six fields' encodings are copied from `raw` rather than
 * encoded again: @ethereumjs/rlp's decoder accepts only canonical encodings (a single
 * byte below 0x80 unprefixed, short lengths in the prefix, no leading zeros in a
 * length), so they are the bytes an encoder would write.
 */
function signingPayload(raw: Uint8Array, chainId: bigint): Uint8Array {
  // Skip the list's prefix: 0xc0–0xf7 short list, 0xf8–0xff a length of (b - 0xf7) bytes.
  const start = raw[0]! <= 0xf7 ? 1 : 1 + (raw[0]! - 0xf7)
  let end = start
  for (let i = 0; i < 6; i++) {
    const b = raw[end]!
    if (b < 0x80) end += 1
    else if (b <= 0xb7) end += 1 + (b - 0x80)
    else {
      const lengthBytes = b - 0xb7
      let length = 0
      for (let j = 1; j <= lengthBytes; j++) length = length * 256 + raw[end + j]!
      end += 1 + lengthBytes + length
    }
  }
  if (tail === undefined || tail.chainId !== chainId) tail = { chainId, bytes: RLP.encode([bigIntToMinimalBytes(chainId), EMPTY, EMPTY]).subarray(1) }
  const bodyLength = end - start + tail.bytes.length
  const prefix = bodyLength <= 55 ? [0xc0 + bodyLength] : listLengthPrefix(bodyLength)
  const out = new Uint8Array(prefix.length + bodyLength)
  out.set(prefix, 0)
  out.set(raw.subarray(start, end), prefix.length)
  out.set(tail.bytes, prefix.length + end - start)
  return out
}

/** The prefix of an RLP list whose payload is `length` (> 55) bytes long: 0xf7 + the length's byte count, then the length big-endian. */
function listLengthPrefix(length: number): number[] {
  const digits: number[] = []
  for (let n = length; n > 0; n = Math.floor(n / 256)) digits.unshift(n % 256)
  return [0xf7 + digits.length, ...digits]
}

/**
 * Signs `fields` for `chainId` with a secp256k1 `privateKey` (32 bytes), as a wallet
 * does (EIP-155, low s). `from`, when given, is the key's address (a dev account's,
 * known already), so the sender is not recovered from the new signature (a
 * libsecp256k1 recovery per transaction saved); otherwise it is. Throws if the key is
 * not a valid secp256k1 scalar.
 */
export function signLegacyTransaction(fields: LegacyTransactionFields, chainId: bigint, privateKey: Uint8Array, from?: Uint8Array): LegacyTransaction {
  const message = keccak256(RLP.encode([...fieldList(fields), bigIntToMinimalBytes(chainId), EMPTY, EMPTY]))
  const { signature, recid } = libsecp256k1().ecdsaSign(message, privateKey)
  const r = bytesToBigInt(signature.subarray(0, 32))
  const s = bytesToBigInt(signature.subarray(32, 64))
  return assemble(fields, chainId * 2n + 35n + BigInt(recid), r, s, from ?? recoverSender(message, recid, r, s))
}

/**
 * A transaction sent as `from` without its key (impersonation, as Hardhat's
 * hardhat_impersonateAccount): it carries a placeholder signature (r = the sender's
 * address as a number, or 1 for the zero address; s = 1) so that it has a raw form
 * and a hash, and `from` is taken as given.
 */
export function impersonatedTransaction(fields: LegacyTransactionFields, chainId: bigint, from: Uint8Array): LegacyTransaction {
  const r = bytesToBigInt(from)
  return assemble(fields, chainId * 2n + 35n, r === 0n ? 1n : r, 1n, from)
}

/**
 * The node's TransactionFromEIP155 checks of the fields its native transaction holds
 * (reference §2.4, §6.5): a whole-gwei price, a nonce that fits the u32 Nonce and a
 * gwei price that fits the u64 GasPrice. Throws {@link TransactionRejectedError}.
 */
function checkNativeFields(nonce: bigint, gasPrice: bigint): void {
  if (gasPrice % GWEI !== 0n) throw new TransactionRejectedError(`gasprice ${gasPrice} is not multiple of GWei`)
  if (nonce > MAX_U32 || gasPrice / GWEI > MAX_U64) {
    throw new TransactionRejectedError(`nonce :${nonce} or GasPrice :${gasPrice} is too big`)
  }
}

/** A transaction the devnet signs (eth_sendTransaction, impersonation): the same field checks as a decoded one. */
function assemble(fields: LegacyTransactionFields, v: bigint, r: bigint, s: bigint, from: Uint8Array): LegacyTransaction {
  checkNativeFields(fields.nonce, fields.gasPrice)
  const rlp = RLP.encode([...fieldList(fields), bigIntToMinimalBytes(v), bigIntToMinimalBytes(r), bigIntToMinimalBytes(s)])
  return { ...fields, v, r, s, rlp, hash: keccak256(rlp), from }
}

function fieldList(f: LegacyTransactionFields): Uint8Array[] {
  return [bigIntToMinimalBytes(f.nonce), bigIntToMinimalBytes(f.gasPrice), bigIntToMinimalBytes(f.gasLimit), f.to ?? EMPTY, bigIntToMinimalBytes(f.value), f.data]
}

/**
 * The sender of a signature over `message` (32 bytes) with libsecp256k1, after
 * go-ethereum's ValidateSignatureValues (homestead: 0 < r < n, 0 < s <= n/2).
 */
function recoverSender(message: Uint8Array, recovery: number, r: bigint, s: bigint): Uint8Array {
  if (!validSignatureValues(recovery, r, s)) {
    throw new TransactionRejectedError('error EIP155 get sender:invalid transaction v, r, s values')
  }
  let publicKey: Uint8Array
  try {
    publicKey = recoverPublicKey(message, recovery, r, s)
  } catch (err) {
    throw new TransactionRejectedError('error EIP155 get sender:invalid signature', { cause: err })
  }
  // A suite's transactions come from a few senders: their key's hash is memoised.
  return memoKeccak256(publicKey.subarray(1)).subarray(12)
}
