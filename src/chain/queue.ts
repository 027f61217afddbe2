/**
 * The chain's queue: every operation that executes or changes state runs through it,
 * one at a time, so executions never interleave (architecture: chain/). Over a fork, a
 * job that read a value not fetched yet fetches it and starts again.
 */
import { toHexRaw } from '../util/hex.ts'
import type { WorldState } from '../state/worldState.ts'
import type { ForkSource } from '../fork/source.ts'
import { ForkMiss, retryOnForkMiss } from '../fork/miss.ts'

/** Runs jobs one after another; a failed job does not stop the ones after it. */
export class ChainQueue {
  readonly #world: WorldState
  #tail: Promise<unknown> = Promise.resolve()

  constructor(world: WorldState) {
    this.#world = world
  }

  /** Runs `work` after every job queued before it; resolves or rejects as `work` does. */
  run<T>(work: () => Promise<T>): Promise<T> {
    // Over a fork, a job that read a value not fetched yet fetches it and starts again
    // (it threw before writing anything: reads come before writes in every job).
    const job = this.#world.source === undefined ? work : () => retryOnForkMiss(work)
    const run = this.#tail.then(job, job)
    this.#tail = run.catch(() => {})
    return run
  }

  /**
   * Runs `work`, which writes nothing (a simulation), as {@link run} does; but over a
   * fork a value it missed is fetched outside the queue, other jobs running meanwhile,
   * and `work` then queues again. Concurrent calls so fetch their values concurrently
   * instead of one round trip at a time.
   */
  async runReadOnly<T>(work: () => Promise<T>): Promise<T> {
    if (this.#world.source === undefined) return this.run(work)
    for (;;) {
      const run = this.#tail.then(work, work)
      this.#tail = run.catch(() => {})
      try {
        return await run
      } catch (err) {
        if (!(err instanceof ForkMiss)) throw err
        await err.load()
      }
    }
  }

  /** Resolves once the work queued so far has run, failed or not. */
  async idle(): Promise<void> {
    await this.#tail.catch(() => {})
  }
}

/**
 * Over a fork: fetches together the accounts a transaction or call surely reads (its
 * sender and recipient), so that its run does not stop at each for a round trip.
 */
export function prefetchTouched(fork: ForkSource, from: Uint8Array, to: Uint8Array | undefined): Promise<void> {
  return fork.prefetch(to === undefined ? [toHexRaw(from)] : [toHexRaw(from), toHexRaw(to)])
}
