/**
 * Write-through persistence of the ledger into an abstract-level database given by
 * the user (option `db`). Memory holds every hot read and the ledger never reads the
 * database back; the database receives, after each change of the chain, the blocks,
 * transaction locations, execution records and the state entries that changed.
 * Values are UTF-8 (hex or JSON) so any abstract-level implementation can hold them.
 *
 * Without a database (the default) the store is a no-op: no database is created and
 * nothing is serialised, so blocks and transactions pay nothing for persistence.
 *
 * Key layout: `block:<height as 10 digits>`, `tx:<raw hash hex>` -> `<height>:<index>`,
 * `record:<raw hash hex>`, `account:<address hex>`, `storage:<address hex><slot hex>`,
 * `code:<code hash hex>`, `meta:head` -> height.
 */
import type { AbstractLevel } from 'abstract-level'
import { serializeUnsignedHeader, type ChainBlock } from './block.ts'
import type { WorldState } from '../state/worldState.ts'
import { toHexRaw } from '../util/hex.ts'

/** Any abstract-level database with string keys. */
export type LevelDatabase = AbstractLevel<any, string, any>

type BatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string }

/** Persists the ledger into `db`, or nowhere when there is none. */
export class LedgerStore {
  readonly #db: LevelDatabase | undefined
  #writes: Promise<void> = Promise.resolve()
  /** The first failed write; reported by {@link close}. */
  #failure: unknown

  /** `db`: where to write; `undefined` makes every call a no-op. */
  constructor(db?: LevelDatabase) {
    this.#db = db
  }

  /** Opens the database if there is one and it is not open yet. */
  async open(): Promise<void> {
    if (this.#db !== undefined && this.#db.status !== 'open') await this.#db.open()
  }

  /**
   * Queues the writes of `blocks` (new at the top of the chain), the removal of the
   * heights in `dropFrom` when given (a revert), and every state entry touched since
   * the last call. The batch is built now, from the state as it is, and written
   * behind (in order, off the hot path); {@link close} waits for it. Without a
   * database it only forgets the touched entries.
   */
  persist(world: WorldState, blocks: readonly ChainBlock[], head: number, dropFrom?: { height: number; to: number; txHashes: string[] }): void {
    const db = this.#db
    if (db === undefined) {
      world.touches.accounts.clear()
      world.touches.storage.clear()
      world.touches.code.clear()
      return
    }
    const ops: BatchOp[] = []
    if (dropFrom !== undefined) {
      for (let h = dropFrom.height; h <= dropFrom.to; h++) ops.push({ type: 'del', key: blockKey(h) })
      for (const hash of dropFrom.txHashes) {
        ops.push({ type: 'del', key: `tx:${hash}` }, { type: 'del', key: `record:${hash}` })
      }
    }
    for (const block of blocks) {
      const height = block.header.height
      ops.push({
        type: 'put',
        key: blockKey(height),
        value: JSON.stringify({
          header: toHexRaw(serializeUnsignedHeader(block.header)),
          transactions: block.transactions.map((tx) => toHexRaw(tx.raw)),
        }),
      })
      block.transactions.forEach((tx, index) => {
        const hash = toHexRaw(tx.hash)
        ops.push({ type: 'put', key: `tx:${hash}`, value: `${height}:${index}` })
        ops.push({ type: 'put', key: `record:${hash}`, value: JSON.stringify(block.records[index], jsonReplacer) })
      })
    }
    const { accounts, storage, code } = world.touches
    for (const address of accounts) {
      const record = world.hasAccount(address, Number.MAX_SAFE_INTEGER)
        ? world.getAccount(address, Number.MAX_SAFE_INTEGER)
        : undefined
      ops.push(
        record === undefined
          ? { type: 'del', key: `account:${address}` }
          : { type: 'put', key: `account:${address}`, value: JSON.stringify(record, jsonReplacer) },
      )
    }
    for (const key of storage) {
      const value = world.getStorage(key.slice(0, 40), key.slice(40), Number.MAX_SAFE_INTEGER)
      ops.push(value.length === 0 ? { type: 'del', key: `storage:${key}` } : { type: 'put', key: `storage:${key}`, value: toHexRaw(value) })
    }
    for (const hash of code) ops.push({ type: 'put', key: `code:${hash}`, value: toHexRaw(world.getCodeByHash(hash)) })
    accounts.clear()
    storage.clear()
    code.clear()
    ops.push({ type: 'put', key: 'meta:head', value: String(head) })
    this.#writes = this.#writes
      .then(() => db.batch(ops as never))
      .catch((err: unknown) => {
        this.#failure ??= err
      })
  }

  /** Waits for queued writes, then closes the database (if any). Throws the first write that failed. */
  async close(): Promise<void> {
    await this.#writes
    if (this.#db !== undefined && this.#db.status === 'open') await this.#db.close()
    if (this.#failure !== undefined) throw this.#failure
  }
}

function blockKey(height: number): string {
  return `block:${String(height).padStart(10, '0')}`
}

function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array) return toHexRaw(value)
  return value
}
