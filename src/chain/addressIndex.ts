/**
 * The address index behind Otterscan's address search (ots_searchTransactionsBefore /
 * After, ots_getTransactionBySenderAndNonce, ots_getContractCreator): for each address,
 * the included transactions that touch it, in chain order. It is kept by the block
 * index as blocks are appended and dropped (mining, resuming from a database, restoring
 * a snapshot), so it always matches the blocks held, and costs nothing per query but a
 * lookup: no block is traced or scanned to answer.
 *
 * What touches an address, as Erigon's and Anvil's indexes count it where the chain's
 * records show it (Anvil crates/anvil/src/eth/otterscan/api.rs indexes every parity
 * trace's addresses):
 * - an EVM transaction: its sender, its recipient, the contract it created, every
 *   contract that emitted a log, and both ends of every synthetic gas-token Transfer
 *   log (reference §6.4: each internal value transfer and SELFDESTRUCT payout), except
 *   the fee's recipient, governance 0x…07, which every transaction pays;
 * - a native transaction: its payer, its signers, the token contract it calls, and
 *   the addresses of the token call (transfer states, approve, transferFrom).
 * Internal calls that move no value and emit no log are not in the records, so not
 * indexed: indexing them would need a tracer on every mined transaction.
 */
import { GAS_TOKEN_ADDRESS, GOVERNANCE_ADDRESS } from '../core/constants.ts'
import { TRANSFER_TOPIC } from '../evm/transferLogs.ts'
import { tokenContract } from '../native/tokenCall.ts'
import { toHexRaw } from '../util/hex.ts'
import type { ChainBlock } from './block.ts'
import type { ChainTransaction } from './transaction.ts'
import type { ExecutionRecord } from './record.ts'

/** Transactions per block the position code allows: a block holds far fewer under the gas cap. */
const PER_BLOCK = 65_536

/** Where an included transaction sits: its block's height and its index in the native block. */
export interface TxPosition {
  readonly height: number
  readonly index: number
}

const GAS_TOKEN = toHexRaw(GAS_TOKEN_ADDRESS)
const GOVERNANCE = toHexRaw(GOVERNANCE_ADDRESS)
const TRANSFER = toHexRaw(TRANSFER_TOPIC)

/** Address (40 hex, lower case, no 0x) to the positions of the transactions touching it. */
export class AddressIndex {
  /** Per address, positions coded as height × 65,536 + index, ascending. */
  readonly #positions = new Map<string, number[]>()
  /** The blocks indexed that touched something, oldest first: their height, the addresses and the contracts created (to drop them again in O(their size)). */
  readonly #blocks: Array<{ height: number; touched: string[]; created: string[] }> = []
  /** Contracts created by a transaction's top-level creation: address to the positions of its creations, ascending (a CREATE2 address can be created again after a SELFDESTRUCT). */
  readonly #created = new Map<string, number[]>()

  /** Indexes the transactions of `block`, which sits above every block indexed so far. */
  add(block: ChainBlock): void {
    const height = block.header.height
    const touched: string[] = []
    const created: string[] = []
    block.transactions.forEach((tx, index) => {
      const position = height * PER_BLOCK + index
      const record = block.records[index]
      for (const address of touchedBy(tx, record)) {
        let list = this.#positions.get(address)
        if (list === undefined) this.#positions.set(address, (list = []))
        list.push(position)
        touched.push(address)
      }
      if (tx.kind === 'evm' && record?.contractAddress !== undefined) {
        const address = toHexRaw(record.contractAddress)
        let list = this.#created.get(address)
        if (list === undefined) this.#created.set(address, (list = []))
        list.push(position)
        created.push(address)
      }
    })
    if (touched.length > 0) this.#blocks.push({ height, touched, created })
  }

  /** Forgets the transactions of the blocks above `height`. */
  truncateAbove(height: number): void {
    const bound = (height + 1) * PER_BLOCK
    while (this.#blocks.length > 0 && this.#blocks[this.#blocks.length - 1]!.height > height) {
      const block = this.#blocks.pop()!
      for (const address of block.touched) {
        const list = this.#positions.get(address)
        if (list === undefined) continue
        while (list.length > 0 && list[list.length - 1]! >= bound) list.pop()
        if (list.length === 0) this.#positions.delete(address)
      }
      for (const address of block.created) {
        const list = this.#created.get(address)
        list?.pop()
        if (list?.length === 0) this.#created.delete(address)
      }
    }
  }

  /** The transactions touching `address` (40 hex, no 0x), oldest first. */
  positions(address: string): TxPosition[] {
    return (this.#positions.get(address.toLowerCase()) ?? []).map(decode)
  }

  /** The latest transaction whose top-level creation made the contract `address` (as Anvil answers the latest deploy), or `undefined`. */
  creation(address: string): TxPosition | undefined {
    const list = this.#created.get(address.toLowerCase())
    return list === undefined || list.length === 0 ? undefined : decode(list[list.length - 1]!)
  }
}

function decode(position: number): TxPosition {
  return { height: Math.floor(position / PER_BLOCK), index: position % PER_BLOCK }
}

/** The distinct addresses `tx` touches (see the module's docstring), 40 hex each. */
function touchedBy(tx: ChainTransaction, record: ExecutionRecord | undefined): Set<string> {
  const out = new Set<string>()
  if (tx.kind === 'genesis') return out
  out.add(toHexRaw(tx.from))
  if (tx.kind === 'native') {
    for (const signer of tx.signers) out.add(toHexRaw(signer))
    const call = tx.call
    out.add(toHexRaw(tokenContract(call.token)))
    if (call.method === 'transfer') for (const state of call.states) out.add(toHexRaw(state.from)).add(toHexRaw(state.to))
    else if (call.method === 'approve') out.add(toHexRaw(call.from)).add(toHexRaw(call.to))
    else if (call.method === 'transferFrom') out.add(toHexRaw(call.sender)).add(toHexRaw(call.from)).add(toHexRaw(call.to))
    return out
  }
  if (tx.tx.to !== undefined) out.add(toHexRaw(tx.tx.to))
  if (record === undefined) return out
  if (record.contractAddress !== undefined) out.add(toHexRaw(record.contractAddress))
  for (const [address, topics] of record.logs) {
    const emitter = toHexRaw(address)
    if (emitter === GAS_TOKEN && topics.length === 3 && toHexRaw(topics[0]!) === TRANSFER) {
      // A synthetic value movement: both ends, bar the fee's governance recipient.
      for (const topic of [topics[1]!, topics[2]!]) {
        const end = toHexRaw(topic.subarray(12))
        if (end !== GOVERNANCE) out.add(end)
      }
    } else out.add(emitter)
  }
  return out
}
