/**
 * Blocks of the chain as the real node serialises them (reference §5.1, §5.5): a
 * native header (native/blockHeader.ts) with what the ledger derived while building it.
 */
import { BinaryWriter } from '../native/binary.ts'
import { serializeHeader, type BlockHeader } from '../native/blockHeader.ts'
import type { ChainTransaction } from './transaction.ts'
import type { ExecutionRecord } from './record.ts'
import type { BlockEnvironment } from '../evm/executor.ts'

/** A block of the chain with what the ledger derived while building it. */
export interface ChainBlock {
  header: BlockHeader
  /** Raw block hash: SHA256d of the unsigned header. */
  hash: Uint8Array
  /** Transactions in block order, native and EVM. */
  transactions: ChainTransaction[]
  /** One execution record per transaction, same order. */
  records: ExecutionRecord[]
  /** Peaks of the BlockRoot tree over TransactionsRoots 0..height. */
  peaks: Uint8Array[]
  /** EVM gas used by the block's transactions. */
  gasUsed: bigint
  /** 256-byte bloom of the block's EVM logs (computed on first use). */
  logsBloom(): Uint8Array
  /** Bookkeeper signatures (64-byte r‖s over SHA256(hash)); computed on first use (signing is off the hot path). */
  signatures(): Uint8Array[]
  /**
   * The EVM block environment the block was mined in (COINBASE, GASLIMIT, BASEFEE,
   * PREVRANDAO), for calls at it and replays; absent on blocks built from a reserved
   * empty run, genesis, and blocks resumed from a database written before the
   * environment was stored (see BlockSettings).
   */
  env?: BlockEnvironment | undefined
}

/** Raw block: header, u32 LE transaction count (not a var-int), raw transactions (§5.1). */
export function serializeBlock(block: ChainBlock): Uint8Array {
  const w = new BinaryWriter().bytes(serializeHeader(block.header, block.signatures()))
  w.u32(block.transactions.length)
  for (const tx of block.transactions) w.bytes(tx.raw)
  return w.finish()
}

/**
 * A block of a header alone (a fork's first block, fork/connect.ts `ForkBlock`): no
 * transactions, no gas used, an empty bloom, the given peaks and signatures.
 */
export function headerOnlyBlock(block: { header: BlockHeader; hash: Uint8Array; peaks: Uint8Array[]; signatures: Uint8Array[] }): ChainBlock {
  const { signatures } = block
  return {
    header: block.header,
    hash: block.hash,
    transactions: [],
    records: [],
    peaks: block.peaks,
    gasUsed: 0n,
    logsBloom: () => new Uint8Array(256),
    signatures: () => signatures,
  }
}
