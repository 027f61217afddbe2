/**
 * Transactions accepted but not yet in a block: with automine, those waiting for a
 * nonce gap to close; without it, everything submitted since the last block.
 */
import { toHexRaw } from '../util/hex.ts'
import { nativeGasPrice, type EvmTransaction, type NativeChainTransaction, type PoolTransaction } from './transaction.ts'

/**
 * One change of the pool, as the store reads them to persist it: `tx` entered the pool,
 * or (`tx` undefined) the transaction with raw hash `hash` (hex without 0x) left it.
 */
export interface PoolChange {
  readonly hash: string
  readonly tx: PoolTransaction | undefined
}

/**
 * Pending transactions: EVM ones indexed by hash and by sender and nonce; native ones
 * (random nonces, no ordering between them) by hash.
 */
export class Mempool {
  readonly #byHash = new Map<string, EvmTransaction>()
  readonly #bySender = new Map<string, Map<bigint, EvmTransaction>>()
  readonly #native = new Map<string, NativeChainTransaction>()
  /** Changes not yet taken by the store, in order; `undefined` (no database): not recorded at all. */
  #changes: PoolChange[] | undefined

  /** Starts recording changes for {@link takeChanges} (a chain with a database). */
  recordChanges(): void {
    this.#changes ??= []
  }

  /** Whether changes were recorded since the last {@link takeChanges}. */
  get changed(): boolean {
    return this.#changes !== undefined && this.#changes.length > 0
  }

  /** The changes recorded since the last call, oldest first (none when not recording). */
  takeChanges(): PoolChange[] {
    const changes = this.#changes
    if (changes === undefined || changes.length === 0) return []
    this.#changes = []
    return changes
  }

  /** Pending transactions of both kinds. */
  get size(): number {
    return this.#byHash.size + this.#native.size
  }

  /** The pending native transaction with raw hash `hash` (hex without 0x). */
  getNative(hash: string): NativeChainTransaction | undefined {
    return this.#native.get(hash)
  }

  /** Adds a native transaction. */
  addNative(tx: NativeChainTransaction): void {
    const hash = toHexRaw(tx.hash)
    this.#native.set(hash, tx)
    this.#changes?.push({ hash, tx })
  }

  /** Removes a native transaction if pending. */
  removeNative(tx: NativeChainTransaction): void {
    this.#dropNative(toHexRaw(tx.hash))
  }

  #dropNative(hash: string): boolean {
    const removed = this.#native.delete(hash)
    if (removed) this.#changes?.push({ hash, tx: undefined })
    return removed
  }

  /** Pending native transactions by gas price, highest first (the solo node's order, §5.5). */
  nativeByPrice(): NativeChainTransaction[] {
    return [...this.#native.values()].sort((a, b) => (nativeGasPrice(b) > nativeGasPrice(a) ? 1 : nativeGasPrice(b) < nativeGasPrice(a) ? -1 : 0))
  }

  /** The pending transaction with raw hash `hash` (hex without 0x). */
  get(hash: string): EvmTransaction | undefined {
    return this.#byHash.get(hash)
  }

  /** The pending transaction of `sender` (hex) with `nonce`. */
  bySenderNonce(sender: string, nonce: bigint): EvmTransaction | undefined {
    return this.#bySender.get(sender)?.get(nonce)
  }

  /** Adds `tx`, replacing a pending one with the same sender and nonce. */
  add(tx: EvmTransaction): void {
    const sender = toHexRaw(tx.from)
    let queue = this.#bySender.get(sender)
    if (queue === undefined) {
      queue = new Map()
      this.#bySender.set(sender, queue)
    }
    const replaced = queue.get(tx.tx.nonce)
    if (replaced !== undefined) {
      const old = toHexRaw(replaced.hash)
      this.#byHash.delete(old)
      this.#changes?.push({ hash: old, tx: undefined })
    }
    queue.set(tx.tx.nonce, tx)
    const hash = toHexRaw(tx.hash)
    this.#byHash.set(hash, tx)
    this.#changes?.push({ hash, tx })
  }

  /** Removes `tx` if pending. */
  remove(tx: EvmTransaction): void {
    const sender = toHexRaw(tx.from)
    const queue = this.#bySender.get(sender)
    queue?.delete(tx.tx.nonce)
    if (queue?.size === 0) this.#bySender.delete(sender)
    const hash = toHexRaw(tx.hash)
    if (this.#byHash.delete(hash)) this.#changes?.push({ hash, tx: undefined })
  }

  /** Removes the pending transaction of either kind with raw hash `hash` (hex without 0x); whether it was pending. */
  drop(hash: string): boolean {
    const tx = this.#byHash.get(hash)
    if (tx !== undefined) this.remove(tx)
    return tx !== undefined || this.#dropNative(hash)
  }

  /** Removes every pending EVM transaction of `sender` (hex); their raw hashes. */
  dropSender(sender: string): string[] {
    const queue = this.#bySender.get(sender)
    if (queue === undefined) return []
    const txs = [...queue.values()]
    for (const tx of txs) this.remove(tx)
    return txs.map((tx) => toHexRaw(tx.hash))
  }

  /** Empties the pool; the raw hashes removed. */
  dropAll(): string[] {
    const hashes = [...this.#byHash.keys(), ...this.#native.keys()]
    this.replaceAll([])
    return hashes
  }

  /** Highest pending nonce of `sender` + 1 in a gap-free run from `accountNonce`, or `accountNonce`. */
  nextNonce(sender: string, accountNonce: bigint): bigint {
    const queue = this.#bySender.get(sender)
    let nonce = accountNonce
    while (queue?.has(nonce)) nonce++
    return nonce
  }

  /** Replaces the whole content (a snapshot's pool). */
  replaceAll(txs: readonly EvmTransaction[], native: readonly NativeChainTransaction[] = []): void {
    if (this.#changes !== undefined) for (const hash of [...this.#byHash.keys(), ...this.#native.keys()]) this.#changes.push({ hash, tx: undefined })
    this.#byHash.clear()
    this.#bySender.clear()
    this.#native.clear()
    for (const tx of txs) this.add(tx)
    for (const tx of native) this.addNative(tx)
  }

  /** Every pending native transaction. */
  allNative(): NativeChainTransaction[] {
    return [...this.#native.values()]
  }

  /** Every pending EVM transaction, in arrival order per sender. */
  all(): EvmTransaction[] {
    return [...this.#byHash.values()]
  }

  /**
   * Transactions that can run now, in the order a block takes them: per sender in
   * nonce order from `nonceOf(sender)`, senders interleaved by gas price (highest
   * first), as the real solo node orders EIP-155 transactions (reference §5.5).
   */
  executable(nonceOf: (sender: string) => bigint): EvmTransaction[] {
    const runs: EvmTransaction[][] = []
    for (const [sender, queue] of this.#bySender) {
      const run: EvmTransaction[] = []
      for (let n = nonceOf(sender); queue.has(n); n++) run.push(queue.get(n)!)
      if (run.length > 0) runs.push(run)
    }
    const out: EvmTransaction[] = []
    const heads = runs.map(() => 0)
    for (;;) {
      let best = -1
      for (let i = 0; i < runs.length; i++) {
        const head = runs[i]![heads[i]!]
        if (head === undefined) continue
        if (best === -1 || head.tx.gasPrice > runs[best]![heads[best]!]!.tx.gasPrice) best = i
      }
      if (best === -1) return out
      out.push(runs[best]![heads[best]!]!)
      heads[best]!++
    }
  }
}
