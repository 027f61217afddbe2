/**
 * A read of a fork's value not fetched yet, and how the chain waits for it: the read
 * throws {@link ForkMiss}, whose `load()` fetches the value, after which the work runs
 * again from its start, before anything was written (retry-on-miss).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'

/**
 * A read reached a value of the fork that is not fetched yet. Not an error for users:
 * `load()` fetches it (rejecting with ForkRemoteError when the remote fails), after
 * which the same read succeeds.
 */
export class ForkMiss extends DualnetError {
  override name = 'ForkMiss'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_FORK_MISS'
  /** Fetches the missing value (and, for an account, its balance, nonce and code together). */
  readonly load: () => Promise<void>

  constructor(what: string, load: () => Promise<void>) {
    super(`fork: ${what} is not fetched yet`)
    this.load = load
  }
}

/** Runs `work`, and after a {@link ForkMiss} fetches what it missed and runs it again from the start. */
export async function retryOnForkMiss<T>(work: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await work()
    } catch (err) {
      if (!(err instanceof ForkMiss)) throw err
      await err.load()
    }
  }
}

/** Whether the execution running in this async context yields its fork misses: see {@link yieldingForkMisses}. */
const yieldMisses = new AsyncLocalStorage<boolean>()

/**
 * Runs `work` (a job of the chain's queue, chain/queue.ts) so that a fork's value not
 * fetched yet ends it with ForkMiss instead of being fetched while it holds the queue:
 * the queue fetches it outside, other jobs running meanwhile, and runs `work` again
 * (evm/stateManager.ts reads the setting). The setting follows `work`'s async context,
 * not a global flag, so an execution that runs outside the queue at the same time
 * (a trace) keeps waiting for its values.
 */
export function yieldingForkMisses<T>(work: () => Promise<T>): Promise<T> {
  return yieldMisses.run(true, work)
}

/**
 * Runs `work` so that its fork misses are waited for where they happen, inside a job that
 * otherwise yields them: for work that cannot be run again cheaply or that swallows
 * errors (replaying the pool into a pending engine, chain/simulation.ts).
 */
export function waitingForkMisses<T>(work: () => Promise<T>): Promise<T> {
  return yieldMisses.run(false, work)
}

/** Whether the running execution yields its fork misses (see {@link yieldingForkMisses}). */
export function forkMissesYield(): boolean {
  return yieldMisses.getStore() === true
}
