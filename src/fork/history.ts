/**
 * A fork's history: the remote's JSON-RPC answers about its blocks, transactions,
 * receipts and logs at or below the fork block, fetched on first ask and kept, so that
 * the fork answers them as the remote does (byte-equal) and, once read, without the
 * remote. Those blocks cannot change under the fork (the disk cache checks the fork
 * block's hash), so an answer is fetched again only after the bounded cache dropped it
 * (fork/answerCache.ts: least recently used first, `forkHistoryLimit` bytes).
 *
 * Reads are synchronous, as the fork's state reads are: an answer not fetched yet
 * throws {@link ForkMiss}, whose `load` fetches it (every missing call of one read in
 * one batch); the JSON-RPC dispatch awaits it and runs the method again
 * (fork/miss.ts `retryOnForkMiss`). Which calls go to the remote, and how
 * their answers are checked against the fork block, is the JSON-RPC view's business
 * (rpc/forkPolicy.ts).
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { AnswerCache } from './answerCache.ts'
import { ForkMiss } from './miss.ts'
import { ForkRemoteError, type RemoteCall, type RemoteNode } from './remote.ts'
import type { Hex } from '../util/hex.ts'

/**
 * The remote answered a history call with a JSON-RPC error object (a native
 * transaction's hash, a log query above its limits): the fork answers that error as
 * the remote did (`code`, `message`, `data`). Not kept: the next ask asks again.
 */
export class RemoteErrorAnswer extends DualnetError {
  override name = 'RemoteErrorAnswer'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_FORK_REMOTE_ANSWER'
  /** The remote's error code. */
  readonly code: number
  /** The remote's error data, when it gave one. */
  readonly data: unknown

  constructor(error: { code: number; message: string; data?: unknown }, options?: { cause?: unknown }) {
    super(error.message, options)
    this.code = error.code
    this.data = error.data
  }
}

/** Kept answers in a JSON-ready form (the disk cache's `history`): one `[method, params, answer]` per call. */
export type HistoryValues = [method: string, params: unknown[], answer: unknown][]

/** JSON-RPC "method not found": a remote that does not serve a call is a failure of the fork, not an answer to pass on. */
const METHOD_NOT_FOUND = -32601

/** The remote's answers about its history up to the fork block, memoised by call in a bounded cache. */
export class RemoteHistory {
  readonly remote: RemoteNode
  /** Height of the fork block: the remote answers for heights up to it. */
  readonly height: number
  /**
   * Kept answers by call key ({@link historyKey}), with their calls; bounded in bytes
   * (its `limit`). The database watches it to write each answer put or dropped.
   */
  readonly cache: AnswerCache<{ call: RemoteCall; answer: unknown }>
  /** Fetches under way, by call key, so that concurrent reads share one. */
  readonly #loading = new Map<string, Promise<void>>()
  /** Told after each fetch (the disk cache schedules a write). */
  onFetched: (() => void) | undefined

  /** `historyLimit`: bytes of answers kept (the `fork.historyLimit` option; default `LIMIT_DEFAULTS.forkHistoryLimit`). */
  constructor(remote: RemoteNode, height: number, historyLimit?: number) {
    this.remote = remote
    this.height = height
    this.cache = new AnswerCache(historyLimit)
  }

  /** The remote's answer to `method(params)`, as it gave it. Throws {@link ForkMiss} until fetched. */
  answer(method: string, params: readonly unknown[]): unknown {
    return this.answers([{ method, params }])[0]
  }

  /**
   * The remote's answers to `calls`, in order. Throws one {@link ForkMiss} for all the
   * calls not fetched yet, whose load fetches them in one batch (rejecting with
   * ForkRemoteError naming the call when the remote fails, with
   * {@link RemoteErrorAnswer} when it answers an error object).
   */
  answers(calls: readonly RemoteCall[]): unknown[] {
    const found = this.cache.read(calls.map(historyKey))
    if (found !== undefined) return found.map((e) => e.answer)
    const missing = calls.filter((c) => !this.cache.has(historyKey(c)))
    throw new ForkMiss(`the remote's answer to ${missing.map((c) => c.method).join(', ')}`, () => this.#load(missing))
  }

  /**
   * The remote's answer to `method(params)`, fetched now and not kept (a trace: large,
   * and asked rarely). Rejects as a load does (ForkRemoteError, {@link RemoteErrorAnswer}).
   */
  async call(method: string, params: readonly unknown[]): Promise<unknown> {
    return (await this.#ask([{ method, params }]))[0]
  }

  /**
   * Keeps `answer` as the remote's answer to `call`, fetched elsewhere (the fork block's
   * header at the start) or here (`pinned`: for a read that runs again to read it).
   */
  seed(call: RemoteCall, answer: unknown, pinned = false): void {
    const key = historyKey(call)
    this.cache.set(key, { call, answer }, key.length + (JSON.stringify(answer)?.length ?? 0), pinned)
  }

  /** Everything kept now, least recently used first (see {@link HistoryValues}). */
  values(): HistoryValues {
    return [...this.cache.entries()].map(([key]) => this.entry(key)!)
  }

  /** The kept answer at `key` ({@link historyKey}) in the form of {@link HistoryValues}, or `undefined` when none is kept. */
  entry(key: string): HistoryValues[number] | undefined {
    const kept = this.cache.peek(key)
    return kept === undefined ? undefined : [kept.call.method, [...kept.call.params], kept.answer]
  }

  /** Takes answers kept before (the disk cache). Throws TypeError for a malformed entry, before taking any. */
  restore(values: HistoryValues): void {
    if (!Array.isArray(values)) throw new TypeError('fork cache: history is not a list')
    for (const entry of values) {
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) throw new TypeError('fork cache: malformed history entry')
    }
    for (const [method, params, answer] of values) this.seed({ method, params }, answer)
  }

  #load(calls: readonly RemoteCall[]): Promise<void> {
    const keys = calls.map(historyKey)
    const running = keys.map((k) => this.#loading.get(k)).filter((p) => p !== undefined)
    const fresh = calls.filter((_, i) => !this.#loading.has(keys[i]!))
    if (fresh.length > 0) {
      const fetching = this.#fetch(fresh).finally(() => {
        for (const c of fresh) this.#loading.delete(historyKey(c))
      })
      for (const c of fresh) this.#loading.set(historyKey(c), fetching)
      running.push(fetching)
    }
    return Promise.all(running).then(
      () => undefined,
      (err: unknown) => {
        // The read fails, so it will not read what it fetched: those answers may be dropped.
        this.cache.unpin(keys)
        throw err
      },
    )
  }

  async #fetch(calls: readonly RemoteCall[]): Promise<void> {
    const answers = await this.#ask(calls)
    // Pinned until the read that missed them runs again and reads them (fork/answerCache.ts).
    for (const [i, call] of calls.entries()) this.seed(call, answers[i], true)
    this.onFetched?.()
  }

  async #ask(calls: readonly RemoteCall[]): Promise<unknown[]> {
    try {
      return await this.remote.batch(calls)
    } catch (err) {
      // The remote's own error answer is what the fork answers too; unless it does not serve the method at all.
      if (err instanceof ForkRemoteError && err.remoteError !== undefined && err.remoteError.code !== METHOD_NOT_FOUND) throw new RemoteErrorAnswer(err.remoteError, { cause: err })
      throw err
    }
  }
}

/** The memo key of a call: its method and params as JSON. */
export function historyKey(call: RemoteCall): string {
  return JSON.stringify([call.method, call.params])
}

/** The block number in `answer[field]` when it is a quantity at or below the fork block, else `undefined`. */
export function heightWithin(history: RemoteHistory, answer: unknown, field: 'number' | 'blockNumber'): number | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined
  const value = (answer as Record<string, unknown>)[field]
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,15}$/.test(value)) return undefined
  const height = Number(value)
  return height <= history.height ? height : undefined
}

/** The remote history's block `hash` (0x-hex) height when it lies at or below the fork block (rpc/logQuery.ts: a log query by block hash). */
export function remoteBlockHeight(history: RemoteHistory, hash: Hex): number | undefined {
  return heightWithin(history, history.answer('eth_getBlockByHash', [hash, false]), 'number')
}
