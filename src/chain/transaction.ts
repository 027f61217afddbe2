/**
 * Transactions as the ledger holds them. The EVM kind wraps a signed legacy
 * EIP-155 transaction the way the real node stores it natively: TxType 0xd3,
 * raw form 0x00 ‖ 0xd3 ‖ varbytes(RLP), hash = the Ethereum keccak hash (§2.4).
 */
import type { LegacyTransaction } from '../evm/legacyTransaction.ts'
import { BinaryWriter } from '../native/binary.ts'
import type { NativeTransaction } from '../native/transaction.ts'
import type { TokenCall } from '../native/tokenCall.ts'
import { GWEI } from '../core/constants.ts'

/** Native TxType of the EIP-155 wrapper (reference §2.3). */
export const TX_TYPE_EIP155 = 0xd3

/** An EVM transaction in the ledger. */
export interface EvmTransaction {
  readonly kind: 'evm'
  /** Raw hash: the standard Ethereum transaction hash. */
  readonly hash: Uint8Array
  /** Native raw bytes: 0x00 ‖ 0xd3 ‖ varbytes(rlp). */
  readonly raw: Uint8Array
  /** The signed legacy transaction (RLP, fields, signature), decoded once. */
  readonly tx: LegacyTransaction
  /** Recovered sender, 20 bytes. */
  readonly from: Uint8Array
}

/** A native transaction (reference §2.1): a token call of the main or gas token contract. */
export interface NativeChainTransaction {
  readonly kind: 'native'
  /** Raw hash: SHA256d of the unsigned part. */
  readonly hash: Uint8Array
  /** Raw bytes as received (the block stores them as they came, §2.1). */
  readonly raw: Uint8Array
  readonly tx: NativeTransaction
  /** The payer, 20 bytes. */
  readonly from: Uint8Array
  /** Addresses that signed (CheckWitness). */
  readonly signers: readonly Uint8Array[]
  /** The decoded token call. */
  readonly call: TokenCall
}

/**
 * A system transaction of the genesis block (reference §5.5): a native-contract deploy
 * or `init` invoke, payer the zero address, unsigned. Never pooled or executed by the
 * miner: genesis writes its effects (chain/genesis.ts).
 */
export interface GenesisTransaction {
  readonly kind: 'genesis'
  /** Raw hash: SHA256d of the unsigned part. */
  readonly hash: Uint8Array
  /** Raw bytes: the unsigned part and a zero signature count. */
  readonly raw: Uint8Array
  readonly tx: NativeTransaction
  /** The payer: the zero address. */
  readonly from: Uint8Array
  /** Nobody signed: always empty. */
  readonly signers: readonly Uint8Array[]
}

/** A transaction the pool accepts and the miner executes. */
export type PoolTransaction = EvmTransaction | NativeChainTransaction

/** Any transaction of the ledger. */
export type ChainTransaction = EvmTransaction | NativeChainTransaction | GenesisTransaction

/** Gas price in the node's units: gas-token 1e-9 per gas (gwei for EIP-155 transactions). */
export function nativeGasPrice(tx: ChainTransaction): bigint {
  return tx.kind === 'evm' ? tx.tx.gasPrice / GWEI : tx.tx.gasPrice
}

/** Wraps a signed legacy transaction in the native EIP-155 envelope. */
export function wrapEvmTransaction(tx: LegacyTransaction): EvmTransaction {
  return {
    kind: 'evm',
    hash: tx.hash,
    raw: new BinaryWriter().u8(0).u8(TX_TYPE_EIP155).varbytes(tx.rlp).finish(),
    tx,
    from: tx.from,
  }
}
