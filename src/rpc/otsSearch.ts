/**
 * What Otterscan's block and address pages share (otterscan docs/custom-jsonrpc.md, in
 * the shapes of Anvil's crates/anvil/src/eth/otterscan/api.rs): transactions of every
 * kind as transaction objects, receipts (without logs on a block's page, with them in
 * the address search), and the address search over the chain's address index
 * (chain/addressIndex.ts).
 *
 * The eth view leaves native transactions out (reference §6.3), but Otterscan's
 * address search and block pages list what touched an address or sits in a block, so
 * here a native transaction is rendered as a transaction object too: `hash` its raw
 * hash, `from` the payer, `to` the token contract it calls, `nonce` its native nonce,
 * `gas` its limit, `gasPrice` in wei (its 1e-9 gas-token price × 1e9), `value` and
 * `input` empty (a NeoVM call carries no EVM value or calldata), `v`, `r`, `s` zero.
 */
import type { ChainBlock } from '../chain/block.ts'
import type { Chain } from '../chain/chain.ts'
import type { TxPosition } from '../chain/addressIndex.ts'
import type { ExecutionRecord } from '../chain/record.ts'
import type { ChainTransaction } from '../chain/transaction.ts'
import type { OtsReceipt, OtsSearchReceipt, OtsSearchResult, RpcTransaction } from '../core/rpcObjects.ts'
import { GWEI, ZERO_ADDRESS } from '../core/constants.ts'
import { tokenContract } from '../native/tokenCall.ts'
import { toHex, toHexRaw, toQuantity } from '../util/hex.ts'
import { formatReceipt, formatTransaction } from './format.ts'

/** The transaction object of the transaction at `index` of `block`, of any kind (see the module's docstring). */
export function formatAnyTransaction(block: ChainBlock, index: number): RpcTransaction {
  const tx = block.transactions[index]!
  if (tx.kind === 'evm') return formatTransaction(tx, { block, index })
  return {
    type: '0x0',
    blockHash: toHex(block.hash),
    blockNumber: toQuantity(block.header.height),
    from: toHex(tx.from),
    gas: toQuantity(tx.tx.gasLimit),
    gasPrice: toQuantity(tx.tx.gasPrice * GWEI),
    hash: toHex(tx.hash),
    input: '0x',
    nonce: toQuantity(tx.tx.nonce),
    to: toHex(tx.kind === 'native' ? tokenContract(tx.call.token) : ZERO_ADDRESS),
    transactionIndex: toQuantity(index),
    value: '0x0',
    v: '0x0',
    r: '0x0',
    s: '0x0',
  }
}

/** Otterscan's receipt of the transaction at `index` of `block` on a block's page: the receipt object, logs and bloom null (Erigon's ots_getBlockTransactions), with the block's timestamp. */
export function formatOtsReceipt(block: ChainBlock, index: number): OtsReceipt {
  const tx = block.transactions[index]!
  const record: ExecutionRecord | undefined = block.records[index]
  const timestamp = toQuantity(block.header.timestamp)
  if (tx.kind === 'evm') {
    const { logs: _logs, logsBloom: _bloom, ...receipt } = formatReceipt(tx, record!, { block, index })
    return { ...receipt, logs: null, logsBloom: null, timestamp }
  }
  const rendered = formatAnyTransaction(block, index)
  return {
    type: '0x0',
    blockHash: rendered.blockHash!,
    blockNumber: rendered.blockNumber!,
    contractAddress: null,
    cumulativeGasUsed: toQuantity(record?.cumulativeGasUsed ?? 0n),
    effectiveGasPrice: rendered.gasPrice,
    from: rendered.from,
    gasUsed: toQuantity(record?.gasUsed ?? 0n),
    logs: null,
    logsBloom: null,
    status: toQuantity(record?.state ?? 1),
    to: rendered.to,
    transactionHash: rendered.hash,
    transactionIndex: rendered.transactionIndex!,
    timestamp,
  }
}

/**
 * The address search's receipt of the transaction at `index` of `block`: the receipt
 * object with its logs and bloom (as eth_getTransactionReceipt renders them; Erigon and
 * Anvil keep them, and Otterscan's search page needs the `logs` array), with the block's
 * timestamp. A native transaction has no EVM logs: `[]` and an empty bloom.
 */
export function formatOtsSearchReceipt(block: ChainBlock, index: number): OtsSearchReceipt {
  const tx = block.transactions[index]!
  if (tx.kind === 'evm') return { ...formatReceipt(tx, block.records[index]!, { block, index }), timestamp: toQuantity(block.header.timestamp) }
  return { ...formatOtsReceipt(block, index), logs: [], logsBloom: toHex(new Uint8Array(256)) }
}

/**
 * One page of the transactions touching `address` (40 hex), newest first: those in
 * blocks below `blockNumber` going back (`before`; 0: from the newest), or above it
 * going forward (`after`; 0: from the oldest). A page ends at a block boundary once it
 * holds `pageSize` transactions, so it can hold more (otterscan docs/custom-jsonrpc.md).
 * `firstPage`: no touching transaction is newer than the page; `lastPage`: none is
 * older (Erigon's hasMore; Anvil's scan tells only whether it reached either end).
 */
export function searchTransactions(chain: Chain, address: string, blockNumber: number, pageSize: number, direction: 'before' | 'after'): OtsSearchResult {
  const all = chain.transactionsTouching(address)
  const picked: TxPosition[] = []
  let newer: boolean
  let older: boolean
  if (direction === 'before') {
    const bound = blockNumber === 0 ? Number.POSITIVE_INFINITY : blockNumber
    let i = all.length - 1
    while (i >= 0 && all[i]!.height >= bound) i--
    newer = i < all.length - 1
    for (; i >= 0; i--) {
      const at = all[i]!
      if (picked.length >= pageSize && at.height !== picked[picked.length - 1]!.height) break
      picked.push(at)
    }
    older = i >= 0
  } else {
    let i = 0
    while (i < all.length && all[i]!.height <= blockNumber) i++
    older = i > 0
    for (; i < all.length; i++) {
      const at = all[i]!
      if (picked.length >= pageSize && at.height !== picked[picked.length - 1]!.height) break
      picked.push(at)
    }
    newer = i < all.length
    picked.reverse()
  }
  const txs: RpcTransaction[] = []
  const receipts: OtsSearchReceipt[] = []
  for (const { height, index } of picked) {
    const block = chain.blockAt(height)!
    txs.push(formatAnyTransaction(block, index))
    receipts.push(formatOtsSearchReceipt(block, index))
  }
  return { txs, receipts, firstPage: !newer, lastPage: !older }
}

/** Whether `tx` is an EVM transaction from `sender` (40 hex) with `nonce`. */
export function sentWithNonce(tx: ChainTransaction, sender: string, nonce: bigint): boolean {
  return tx.kind === 'evm' && tx.tx.nonce === nonce && toHexRaw(tx.from) === sender
}
