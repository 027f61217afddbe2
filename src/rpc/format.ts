/**
 * Rendering of ledger objects in the JSON-RPC conventions (spec: JSON-RPC objects;
 * reference §6.3, §6.4): QUANTITY without leading zeros, fixed-length DATA, raw
 * (not reversed) hashes.
 */
import { logsBloom } from '../chain/bloom.ts'
import type { ChainBlock } from '../chain/block.ts'
import { serializeHeader } from '../native/blockHeader.ts'
import type { ExecutionRecord } from '../chain/record.ts'
import type { EvmTransaction } from '../chain/transaction.ts'
import type { RawLog } from '../evm/transferLogs.ts'
import { toHex, toQuantity, type Hex } from '../util/hex.ts'
import { EVM_TX_GAS_CAP } from '../core/constants.ts'
import type { RpcBlock, RpcLog, RpcReceipt, RpcTransaction } from '../core/rpcObjects.ts'
import { EMPTY_TRIE_ROOT, EMPTY_UNCLES_HASH } from '../core/constants.ts'

const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`
const ZERO_ADDRESS: Hex = `0x${'00'.repeat(20)}`
const SIGNATURE_PLACEHOLDER = new Uint8Array(64)
/** EIP-2718 type of every EVM transaction the chain takes (legacy). */
const LEGACY_TYPE = '0x0'

/**
 * Renderings of the ledger's immutable byte strings (hashes, log addresses, topics
 * and data of mined transactions), kept per array: receipts and eth_getLogs render
 * the same logs again and again, and a lookup costs a fraction of the hex encoding.
 * Weak, so a rendering lives no longer than its bytes.
 */
const renderings = new WeakMap<Uint8Array, Hex>()

function hexOf(bytes: Uint8Array): Hex {
  let hex = renderings.get(bytes)
  if (hex === undefined) {
    hex = toHex(bytes)
    renderings.set(bytes, hex)
  }
  return hex
}

/** Position of a transaction, null while pending. */
export interface TransactionPosition {
  block: ChainBlock
  index: number
}

/**
 * Transaction object (reference §6.4), plus `type: "0x0"` (legacy), which the real node
 * omits and alloy (Foundry) requires; see the README's differences.
 */
export function formatTransaction(tx: EvmTransaction, at: TransactionPosition | undefined): RpcTransaction {
  const t = tx.tx
  return {
    type: LEGACY_TYPE,
    blockHash: at === undefined ? null : toHex(at.block.hash),
    blockNumber: at === undefined ? null : toQuantity(at.block.header.height),
    from: toHex(tx.from),
    gas: toQuantity(t.gasLimit),
    gasPrice: toQuantity(t.gasPrice),
    hash: toHex(tx.hash),
    input: toHex(t.data),
    nonce: toQuantity(t.nonce),
    to: t.to === undefined ? null : toHex(t.to),
    transactionIndex: at === undefined ? null : toQuantity(at.index),
    value: toQuantity(t.value),
    v: toQuantity(t.v),
    r: toQuantity(t.r),
    s: toQuantity(t.s),
  }
}

/** Log objects of one included transaction; logIndex is block-wide (the Ethereum standard). */
export function formatLogs(tx: EvmTransaction, record: ExecutionRecord, at: TransactionPosition): RpcLog[] {
  return record.logs.map((log, i) => formatLog(log, record.firstLogIndex + i, tx, at))
}

/** One log object. */
export function formatLog(log: RawLog, logIndex: number, tx: EvmTransaction, at: TransactionPosition): RpcLog {
  const [address, topics, data] = log
  return {
    address: hexOf(address),
    topics: topics.map(hexOf),
    data: hexOf(data),
    blockNumber: toQuantity(at.block.header.height),
    transactionHash: hexOf(tx.hash),
    transactionIndex: toQuantity(at.index),
    blockHash: hexOf(at.block.hash),
    logIndex: toQuantity(logIndex),
    removed: false,
  }
}

/**
 * Receipt object (reference §6.4; cumulativeGasUsed is the standard one), plus
 * `type: "0x0"` and `effectiveGasPrice` (the transaction's gas price, wei): fields the
 * real node omits and every standard client knows; alloy (Foundry) requires `type`.
 */
export function formatReceipt(tx: EvmTransaction, record: ExecutionRecord, at: TransactionPosition): RpcReceipt {
  return {
    type: LEGACY_TYPE,
    blockHash: hexOf(at.block.hash),
    blockNumber: toQuantity(at.block.header.height),
    contractAddress: record.contractAddress === undefined ? null : toHex(record.contractAddress),
    cumulativeGasUsed: toQuantity(record.cumulativeGasUsed),
    effectiveGasPrice: toQuantity(tx.tx.gasPrice),
    from: toHex(tx.from),
    gasUsed: toQuantity(record.gasUsed),
    logs: formatLogs(tx, record, at),
    logsBloom: hexOf(logsBloom(record, () => record.logs)),
    status: toQuantity(record.state),
    to: tx.tx.to === undefined ? null : toHex(tx.tx.to),
    transactionHash: hexOf(tx.hash),
    transactionIndex: toQuantity(at.index),
  }
}

/** Byte length of the raw native block (the eth block `size`, reference §6.3), without signing it. */
export function rawBlockSize(block: ChainBlock): number {
  const signatures = block.header.bookkeepers.map(() => SIGNATURE_PLACEHOLDER)
  let size = serializeHeader(block.header, signatures).length + 4
  for (const tx of block.transactions) size += tx.raw.length
  return size
}

/** Block object (reference §6.3): EVM transactions only, hashes or full objects. */
export function formatBlock(block: ChainBlock, fullTransactions: boolean): RpcBlock {
  const h = block.header
  const evm = block.transactions.flatMap((tx, index) => (tx.kind === 'evm' ? [{ tx, index }] : []))
  const zeroRoot = h.transactionsRoot.every((b) => b === 0)
  return {
    number: toQuantity(h.height),
    hash: toHex(block.hash),
    parentHash: toHex(h.prevHash),
    nonce: '0x0000000000000000',
    mixHash: ZERO_HASH,
    sha3Uncles: EMPTY_UNCLES_HASH,
    logsBloom: hexOf(block.logsBloom()),
    transactionsRoot: zeroRoot ? EMPTY_TRIE_ROOT : toHex(h.transactionsRoot),
    stateRoot: ZERO_HASH,
    receiptsRoot: EMPTY_TRIE_ROOT,
    miner: ZERO_ADDRESS,
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: toQuantity(rawBlockSize(block)),
    gasLimit: toQuantity(EVM_TX_GAS_CAP),
    gasUsed: toQuantity(block.gasUsed),
    timestamp: toQuantity(h.timestamp),
    transactions: fullTransactions ? evm.map(({ tx, index }) => formatTransaction(tx, { block, index })) : evm.map(({ tx }) => toHex(tx.hash)),
    uncles: [],
  }
}
