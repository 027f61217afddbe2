/**
 * The EIP-155 envelope of the native format (TxType 0xd3, reference §2.4;
 * core/types/transaction.go `decodeEip155`, `TransactionFromEIP155`; go-ethereum
 * 1.9.25 legacy `txdata` RLP and `EIP155Signer`).
 *
 * Raw form: `0x00` ‖ `0xd3` ‖ varbytes(RLP of a signed legacy transaction) — there are
 * no native nonce/gas/payer fields, no attributes and no native signatures. The node
 * derives the native fields from the RLP: nonce (must fit u32), gasPrice in gwei (must
 * be a whole number of gwei), gasLimit, payer = the recovered sender.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../util/hash.ts'
import { bigIntToBytes, bytesToBigInt } from '../util/hex.ts'
import { recoverPublicKey, validSignatureValues } from '../util/secp256k1.ts'

/** The native fields an EIP-155 envelope stands for. */
export interface Eip155Fields {
  /** Ethereum nonce (≤ 2^32 − 1). */
  nonce: number
  /** Gas price in gwei (the Ethereum price / 1e9). */
  gasPrice: bigint
  /** Ethereum gas limit. */
  gasLimit: bigint
  /** Recovered sender, 20 bytes. */
  payer: Uint8Array
  /** Chain id from `v` (0 for an unprotected v = 27/28 transaction). The node requires its own (12345 on solo). */
  chainId: bigint
}

/** RLP that the node's EIP-155 path refuses; the message follows go-ethereum's wording where it has one. */
export class Eip155DecodeError extends DualnetError {
  override name = 'Eip155DecodeError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_EIP155_DECODE'
}

const GWEI = 1_000_000_000n
const MAX_U32 = 0xffffffffn
const MAX_U64 = 2n ** 64n - 1n
const INVALID_SIG = 'invalid transaction v, r, s values'

/** Decodes the RLP of a signed legacy transaction into the native fields (see the module doc). */
export function decodeEip155Fields(rlp: Uint8Array): Eip155Fields {
  if (rlp.length === 0 || rlp[0]! < 0xc0) throw new Eip155DecodeError('rlp: expected input list for types.txdata (typed transactions are not supported)')
  const fields = legacyFields(rlp)
  const [nonceB, priceB, gasB, to, valueB, , vB, rB, sB] = fields as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array]
  const nonce = integer(nonceB, 'nonce', 8)
  const price = integer(priceB, 'gasPrice')
  const gas = integer(gasB, 'gas', 8)
  integer(valueB, 'value')
  if (to.length !== 0 && to.length !== 20) throw new Eip155DecodeError(`rlp: recipient must be 20 bytes or empty, got ${to.length}`)
  const v = integer(vB, 'v')
  const r = integer(rB, 'r')
  const s = integer(sB, 's')

  let chainId: bigint
  let recovery: number
  let unsigned: Uint8Array[]
  if (v === 27n || v === 28n) {
    chainId = 0n
    recovery = Number(v - 27n)
    unsigned = fields.slice(0, 6)
  } else if (v >= 35n) {
    chainId = (v - 35n) / 2n
    recovery = Number((v - 35n) % 2n)
    unsigned = [...fields.slice(0, 6), minimalBytes(chainId), new Uint8Array(0), new Uint8Array(0)]
  } else {
    throw new Eip155DecodeError(INVALID_SIG)
  }
  // Homestead rules (ValidateSignatureValues): 0 < r, s < n and s ≤ n/2.
  if (!validSignatureValues(recovery, r, s)) throw new Eip155DecodeError(INVALID_SIG)
  let sender: Uint8Array
  try {
    sender = keccak256(recoverPublicKey(keccak256(RLP.encode(unsigned)), recovery, r, s).subarray(1)).slice(12)
  } catch (err) {
    throw new Eip155DecodeError(INVALID_SIG, { cause: err })
  }
  if (nonce > MAX_U32 || price > MAX_U64) throw new Eip155DecodeError(`nonce :${nonce} or GasPrice :${price} is too big`)
  if (price % GWEI !== 0n) throw new Eip155DecodeError(`gasprice ${price} is not multiple of GWei`)
  return { nonce: Number(nonce), gasPrice: price / GWEI, gasLimit: gas, payer: sender, chainId }
}

/**
 * The 9 string fields of a legacy transaction's RLP list, read without recursion (a
 * nested list is refused at once, so hostile nesting stays linear) and with
 * go-ethereum's canonical-encoding rules, so that keccak256(input) is geth's hash.
 */
function legacyFields(rlp: Uint8Array): Uint8Array[] {
  const outer = rlpHeader(rlp, 0, rlp.length)
  if (!outer.list) throw new Eip155DecodeError('rlp: expected input list for types.txdata')
  if (outer.start + outer.length !== rlp.length) throw new Eip155DecodeError('rlp: input contains more than one value')
  const fields: Uint8Array[] = []
  const end = rlp.length
  for (let pos = outer.start; pos < end; ) {
    const item = rlpHeader(rlp, pos, end)
    if (item.list) throw new Eip155DecodeError('rlp: expected input string or byte for a legacy transaction field')
    if (fields.length === 9) throw new Eip155DecodeError('rlp: input list has too many elements for types.txdata')
    fields.push(rlp.subarray(item.start, item.start + item.length))
    pos = item.start + item.length
  }
  if (fields.length < 9) throw new Eip155DecodeError('rlp: too few elements for types.txdata')
  return fields
}

/** One RLP item header at `pos`: whether it is a list, where its payload starts and how long it is. */
function rlpHeader(b: Uint8Array, pos: number, end: number): { list: boolean; start: number; length: number } {
  const tag = b[pos]!
  let list = false
  let start = pos + 1
  let length: number
  if (tag < 0x80) return { list, start: pos, length: 1 }
  if (tag <= 0xb7 || (tag >= 0xc0 && tag <= 0xf7)) {
    list = tag >= 0xc0
    length = tag - (list ? 0xc0 : 0x80)
    if (!list && length === 1 && start < end && b[start]! < 0x80) throw new Eip155DecodeError('rlp: non-canonical size information for []byte')
  } else {
    list = tag > 0xbf
    const size = tag - (list ? 0xf7 : 0xb7)
    if (start + size > end) throw new Eip155DecodeError('rlp: value size exceeds available input length')
    if (b[start] === 0) throw new Eip155DecodeError('rlp: non-canonical size information')
    length = 0
    for (let i = 0; i < size; i++) length = length * 256 + b[start + i]!
    if (length < 56) throw new Eip155DecodeError('rlp: non-canonical size information')
    start += size
  }
  if (length > end - start) throw new Eip155DecodeError('rlp: value size exceeds available input length')
  return { list, start, length }
}

/** An RLP integer: big-endian, no leading zero byte, at most `maxBytes` bytes when given. */
function integer(bytes: Uint8Array, field: string, maxBytes?: number): bigint {
  if (bytes.length > 0 && bytes[0] === 0) throw new Eip155DecodeError(`rlp: non-canonical integer (leading zero bytes) for ${field}`)
  if (maxBytes !== undefined && bytes.length > maxBytes) throw new Eip155DecodeError(`rlp: input string too long for uint64 (${field})`)
  return bytesToBigInt(bytes)
}

function minimalBytes(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0)
  return bigIntToBytes(value, Math.ceil(value.toString(16).length / 2))
}
