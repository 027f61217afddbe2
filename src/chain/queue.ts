/**
 * The chain's queue: every operation that executes or changes state runs through it,
 * one at a time, so executions never interleave (architecture: chain/).
 *
 * Over a fork: fetch first, execute after (issue 35). A job that reads a fork value not
 * fetched yet ends at once with {@link ForkMiss} (the whole job runs under
 * `yieldingForkMisses`, so the EVM's state manager throws the miss on instead of waiting
 * for it). The job gives up its turn, the value is fetched outside the queue while the
 * jobs queued behind it run, and the job then queues again, at the tail, and runs from
 * its start. A remote that hangs or answers 429 so delays only the requests that need
 * its values: an unrelated transaction, `evm_mine`, reads and snapshots go on.
 *
 * What this asks of a job (the queue's contract, kept by every job in src/chain/):
 * - it may be run again from its start: whatever it wrote before the miss is undone or
 *   is the same on the next run. Reads come before writes in every job, and a block
 *   whose execution missed is undone by the miner (mining.ts); intake.ts takes back a
 *   transaction it added to the pool when the block meant to mine it missed, and what
 *   already landed is not redone (Chain.mine counts the blocks mined; intake.ts mines
 *   the sender's later transactions in a job of their own, which re-reads the pool);
 * - it reads the chain afresh on each run (never a height or a pool entry captured
 *   before it was queued), so work that comes back after a revert runs on the reverted
 *   chain as if it had arrived then, and applies nothing it computed before.
 *
 * Order: a job that comes back queues behind the jobs that came meanwhile. One
 * sender's transactions still land in nonce order (the pool keeps a later nonce until
 * the earlier one lands, and automine mines a sender's transactions in nonce order);
 * each accepted transaction is mined once (a mined one leaves the pool, and the
 * sender's later transactions are mined by re-reading the pool).
 *
 * After {@link ChainQueue.retire} (the chain is reset or closed) work that was waiting
 * on the remote is refused when it comes back instead of running on a chain nobody
 * sees any more (and whose database the new chain writes).
 *
 * Without a fork nothing of this runs: {@link ChainQueue.run} chains the job as it is.
 */
import { toHexRaw } from '../util/hex.ts'
import type { WorldState } from '../state/worldState.ts'
import type { ForkSource } from '../fork/source.ts'
import { ForkMiss, yieldingForkMisses } from '../fork/miss.ts'
import { TransactionRejectedError } from '../core/errors.ts'

/** Runs jobs one after another; a failed job does not stop the ones after it. */
export class ChainQueue {
  readonly #world: WorldState
  #tail: Promise<unknown> = Promise.resolve()
  #retired = false

  constructor(world: WorldState) {
    this.#world = world
  }

  /**
   * Runs `work` after every job queued before it; resolves or rejects as `work` does.
   * Over a fork, a value `work` missed is fetched outside the queue and `work` queues
   * again (see the module's comment for what `work` must keep). Rejects with the
   * remote's error (ForkRemoteError) when the fetch fails, and with
   * TransactionRejectedError when the queue was retired while it fetched.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.#world.source === undefined ? this.#enqueue(work) : this.#runOnFork(work)
  }

  /** {@link run} over a fork. */
  async #runOnFork<T>(work: () => Promise<T>): Promise<T> {
    const yielding = () => yieldingForkMisses(work)
    for (;;) {
      try {
        return await this.#enqueue(yielding)
      } catch (err) {
        if (!(err instanceof ForkMiss)) throw err
        await err.load()
        if (this.#retired) throw new TransactionRejectedError('the chain was reset or closed while this request waited for the fork remote; nothing was applied')
      }
    }
  }

  /** {@link run} for work that writes nothing (a simulation); the same rules, named for the reader. */
  runReadOnly<T>(work: () => Promise<T>): Promise<T> {
    return this.run(work)
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(work, work)
    this.#tail = run.catch(() => {})
    return run
  }

  /** Resolves once the work queued so far has run, failed or not (work waiting on the fork remote outside the queue is not waited for). */
  async idle(): Promise<void> {
    await this.#tail.catch(() => {})
  }

  /** Refuses the work that comes back from the fork remote from now on (the chain was reset or closed). */
  retire(): void {
    this.#retired = true
  }
}

/**
 * Over a fork: the accounts a transaction or call surely reads (its sender and
 * recipient) that are not fetched yet, as one {@link ForkMiss} whose load fetches them
 * together, so that its run does not stop at each for a round trip; `undefined` when
 * both are fetched. Thrown inside a queued job, the queue fetches them outside it.
 */
export function touchedMiss(fork: ForkSource, from: Uint8Array, to: Uint8Array | undefined): ForkMiss | undefined {
  const missing: string[] = []
  for (const address of to === undefined ? [toHexRaw(from)] : [toHexRaw(from), toHexRaw(to)]) {
    try {
      fork.account(address)
    } catch (err) {
      if (!(err instanceof ForkMiss)) throw err
      missing.push(address)
    }
  }
  if (missing.length === 0) return undefined
  return new ForkMiss(`accounts ${missing.map((a) => `0x${a}`).join(', ')}`, () => fork.prefetch(missing))
}
