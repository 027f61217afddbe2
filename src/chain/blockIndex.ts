/**
 * The blocks of the chain as stored: the built ones by height and by hash, where each
 * included transaction sits, and the runs of empty blocks mined but not built yet
 * ({@link EmptyRuns}). It only stores and looks up; building and sealing blocks is the
 * miner's (mining.ts), so every read here builds nothing.
 */
import { toHexRaw } from '../util/hex.ts'
import type { ChainBlock } from './block.ts'
import { EmptyRuns } from './emptyRuns.ts'
import { AddressIndex } from './addressIndex.ts'

/** TransactionsRoot of a block without transactions. */
export const ZERO_ROOT = new Uint8Array(32)

/** Built blocks, their indexes, and the pending empty runs above them. */
export class BlockIndex {
  /** Height of the first block held: 0, or a fork's block (the blocks below it are the remote's). */
  readonly base: number
  readonly #built: ChainBlock[] = []
  readonly #byHash = new Map<string, ChainBlock>()
  readonly #txIndex = new Map<string, { height: number; index: number }>()
  /** Empty blocks mined in bulk and built on first use. */
  readonly empty = new EmptyRuns()
  /** The transactions touching each address, kept with the built blocks (Otterscan's address search). */
  readonly addresses = new AddressIndex()

  /**
   * Unix wall time (ms) when the head was last mined, or when this chain was created
   * (anvil_getLastBlockWallTime): the miner marks it as it mines; a block built later
   * from a reserved empty run, and a revert, do not.
   */
  #headWallTime = Date.now()

  constructor(base = 0) {
    this.base = base
  }

  /** See {@link #headWallTime}. */
  get headWallTime(): number {
    return this.#headWallTime
  }

  /** Records that a new head was mined now. */
  markHead(): void {
    this.#headWallTime = Date.now()
  }

  /** Height of the latest block, built or pending. */
  get height(): number {
    return this.base + this.#built.length - 1 + this.empty.count
  }

  /** One above the highest built block: heights {@link base} to `builtCount - 1` are built. */
  get builtCount(): number {
    return this.base + this.#built.length
  }

  /** The latest built block. */
  get top(): ChainBlock {
    return this.#built[this.#built.length - 1]!
  }

  /** The built block at `height`, or `undefined`. */
  built(height: number): ChainBlock | undefined {
    return this.#built[height - this.base]
  }

  /** The built blocks from height `first` up. */
  builtFrom(first: number): ChainBlock[] {
    return this.#built.slice(Math.max(0, first - this.base))
  }

  /** The built block with raw hash `hash` (64 hex, no 0x), or `undefined`. */
  byHash(hash: string): ChainBlock | undefined {
    return this.#byHash.get(hash)
  }

  /** Where the included transaction with raw hash `hash` sits, or `undefined`. */
  locate(hash: string): { height: number; index: number } | undefined {
    return this.#txIndex.get(hash)
  }

  /** Whether a transaction with raw hash `hash` is on chain. */
  includes(hash: string): boolean {
    return this.#txIndex.has(hash)
  }

  /** Timestamp of the block at `height` (must exist), without building it. */
  timestampAt(height: number): number {
    return this.empty.timestampAt(height) ?? this.#built[height - this.base]!.header.timestamp
  }

  /** Whether the block at `height` is an empty block not built yet. */
  isPendingEmpty(height: number): boolean {
    return height >= this.builtCount && height <= this.height
  }

  /** Adds `block` on top of the built blocks. */
  append(block: ChainBlock): void {
    this.#built.push(block)
    this.#byHash.set(toHexRaw(block.hash), block)
    block.transactions.forEach((tx, index) => {
      this.#txIndex.set(toHexRaw(tx.hash), { height: block.header.height, index })
    })
    this.addresses.add(block)
  }

  /** Forgets the blocks above `height`, built or pending; the raw hashes of the transactions they held. */
  truncateAbove(height: number): string[] {
    const dropped: string[] = []
    this.empty.truncateAbove(height)
    this.addresses.truncateAbove(height)
    while (this.builtCount - 1 > height) {
      const block = this.#built.pop()!
      this.#byHash.delete(toHexRaw(block.hash))
      for (const tx of block.transactions) {
        const hash = toHexRaw(tx.hash)
        this.#txIndex.delete(hash)
        dropped.push(hash)
      }
    }
    return dropped
  }
}
