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
  const message = keccak256(RLP.encode([nonceB, gasPriceB, gasLimitB, toB, valueB, data, bigIntToMinimalBytes(chainId), EMPTY, EMPTY]))
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
