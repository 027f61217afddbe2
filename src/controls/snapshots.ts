/**
 * Snapshot ids over chain checkpoints. JSON-RPC follows Hardhat's evm_snapshot /
 * evm_revert: ids are increasing QUANTITYs, reverting to one invalidates it and every
 * later id, an unknown id answers false. The function-call API can also keep a
 * snapshot for further reverts (`{ keep: true }`), which none of the anchors offer.
 */
import type { Chain, ChainCheckpoint } from '../chain/chain.ts'
import { toQuantity, type Hex } from '../util/hex.ts'

/** Read and write access to the interval-mining period (milliseconds, 0 = off). */
export interface IntervalMiningSetting {
  get(): number
  set(ms: number): Promise<void>
}

/** Live snapshots of one chain, in creation order. */
export class SnapshotRegistry {
  readonly #chain: Chain
  readonly #live = new Map<Hex, { checkpoint: ChainCheckpoint; intervalMining: number }>()
  readonly #mining: IntervalMiningSetting
  #next = 1

  /** `mining`: the interval-mining setting, which lives outside the chain but is part of what a snapshot restores. */
  constructor(chain: Chain, mining: IntervalMiningSetting) {
    this.#chain = chain
    this.#mining = mining
  }

  /** Takes a snapshot (O(1) in state and chain size) and returns its id. */
  async take(): Promise<Hex> {
    const checkpoint = await this.#chain.capture()
    const id = toQuantity(this.#next++)
    this.#live.set(id, { checkpoint, intervalMining: this.#mining.get() })
    return id
  }

  /** Each live snapshot's id with the height of the latest block it holds, in creation order. */
  list(): { id: Hex; height: number }[] {
    return [...this.#live].map(([id, { checkpoint }]) => ({ id, height: checkpoint.height }))
  }

  /**
   * Restores snapshot `id` (O(changes since)). Returns false for an unknown or
   * invalidated id. Without `keep`, the id and all later ones are invalidated.
   */
  async revert(id: Hex, keep = false): Promise<boolean> {
    const snapshot = this.#live.get(id)
    if (snapshot === undefined) return false
    await this.#chain.restore(snapshot.checkpoint)
    await this.#mining.set(snapshot.intervalMining)
    const order = Number(BigInt(id))
    for (const [other, { checkpoint }] of this.#live) {
      const later = Number(BigInt(other)) > order
      if (later || (!keep && other === id)) {
        this.#live.delete(other)
        this.#chain.release(checkpoint)
      }
    }
    return true
  }
}
