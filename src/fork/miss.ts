/**
 * A read of a fork's value not fetched yet, and how the chain waits for it: the read
 * throws {@link ForkMiss}, whose `load()` fetches the value, after which the work runs
 * again from its start, before anything was written (retry-on-miss).
 */
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

/** Whether a fork's miss ends the execution (ForkMiss thrown) rather than being waited for: see {@link yieldingForkMisses}. */
let yieldMisses = false

/**
 * Runs `work` (one simulation, which writes nothing) so that a fork's value not fetched
 * yet ends it with ForkMiss instead of being fetched while it holds the chain's queue:
 * its caller fetches it outside the queue and runs it again, and the fetches of
 * concurrent calls overlap (chain/queue.ts runReadOnly; evm/stateManager.ts reads the setting). Only one execution runs at a
 * time (the queue), so the setting is the running one's.
 */
export async function yieldingForkMisses<T>(work: () => Promise<T>): Promise<T> {
  yieldMisses = true
  try {
    return await work()
  } finally {
    yieldMisses = false
  }
}

/** Whether the running execution yields its fork misses (see {@link yieldingForkMisses}). */
export function forkMissesYield(): boolean {
  return yieldMisses
}
