/**
 * Decoding and stateless checks of a raw EVM transaction, as the real node's
 * eth_sendRawTransaction does before its pool (reference §2.4, §6.5 steps 1-2).
 */
import { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { createLegacyTxFromBytesArray, type LegacyTx } from '@ethereumjs/tx'
import { GWEI } from '../chain/constants.ts'
import { TransactionRejectedError } from '../chain/errors.ts'
import { bytesToBigInt } from '../util/hex.ts'

/** A decoded, signature-checked legacy transaction. */
export interface DecodedEvmTransaction {
  tx: LegacyTx
  /** Recovered sender, 20 bytes. */
  from: Uint8Array
  /** Ethereum transaction hash (raw order). */
  hash: Uint8Array
}

const MAX_U32 = 0xffffffffn
const MAX_U64 = 2n ** 64n - 1n

/**
 * Decodes `raw` (RLP of a signed legacy transaction) and applies the real node's
 * stateless rules: legacy only (typed transactions are not supported, as with the
 * node's go-ethereum 1.9.25), EIP-155 chain id equal to `common`'s, gas price a whole
 * number of gwei, nonce within u32, valid signature.
 * Throws {@link TransactionRejectedError} with the node's message text.
 */
export function decodeEvmTransaction(raw: Uint8Array, common: Common): DecodedEvmTransaction {
  if (raw.length === 0) throw new TransactionRejectedError('rlp: value size exceeds available input length')
  if (raw[0]! <= 0x7f) {
    throw new TransactionRejectedError(
      `rlp: expected input list for types.txdata: typed transaction (type ${raw[0]}) not supported; ` +
        'the chain accepts only legacy EIP-155 transactions',
    )
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
  const [nonce, gasPrice, , , , , v] = fields.map(bytesToBigInt) as [bigint, bigint, bigint, bigint, bigint, bigint, bigint]
  const chainId = v >= 35n ? (v - 35n) / 2n : 0n
  const want = common.chainId()
  if (chainId !== want) throw new TransactionRejectedError(`invalid chain id, want: ${want}, got: ${chainId}`)
  if (gasPrice % GWEI !== 0n) throw new TransactionRejectedError(`gasprice ${gasPrice} is not multiple of GWei`)
  if (nonce > MAX_U32 || gasPrice / GWEI > MAX_U64) {
    throw new TransactionRejectedError(`nonce :${nonce} or GasPrice :${gasPrice} is too big`)
  }
  let tx: LegacyTx
  let from: Uint8Array
  try {
    tx = createLegacyTxFromBytesArray(fields, { common })
    from = tx.getSenderAddress().bytes
  } catch (err) {
    throw new TransactionRejectedError(`error EIP155 get sender:${(err as Error).message.split(' (')[0]}`, { cause: err })
  }
  return { tx, from, hash: tx.hash() }
}
