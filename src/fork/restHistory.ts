/**
 * A fork's history in the REST view: the remote's REST answers about its blocks,
 * transactions, events and merkle proofs, fetched on first ask and kept (in memory, in
 * the disk cache and in a database), so that the fork answers them as the remote does
 * and, once read, without the remote; in a bounded cache (fork/answerCache.ts: least
 * recently used first out, `forkHistoryLimit` bytes), so a dropped one is fetched again. Which paths are asked, and how an answer is placed against the
 * fork block, is the REST view's business (rest/forkHistory.ts).
 *
 * Reads are synchronous, as the fork's other reads are: an answer not fetched yet
 * throws {@link ForkMiss}, whose `load` fetches every missing path of one read
 * concurrently; the REST dispatch awaits it and runs the route again.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { AnswerCache } from './answerCache.ts'
import { ForkMiss } from './miss.ts'
import type { RemoteNode } from './remote.ts'
import { parseLosslessJson, stringifyLosslessJson } from '../util/losslessJson.ts'

/** One kept REST answer: the envelope's `Error` and `Result` (u64 numbers beyond 2^53 as bigint). */
export interface RestHistoryAnswer {
  Error: number
  Result: unknown
}

/**
 * The remote answered a history path with an error that carries a text (an internal
 * failure, not a "not found"): the fork answers it as the remote did (`code`, `result`)
 * and does not keep it, so the next ask asks again.
 */
export class RemoteRestErrorAnswer extends DualnetError {
  override name = 'RemoteRestErrorAnswer'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_FORK_REMOTE_REST_ANSWER'
  readonly code: number
  readonly result: unknown

  constructor(path: string, code: number, result: unknown) {
    super(`fork: the remote answered GET ${path} with error ${code}`)
    this.code = code
    this.result = result
  }
}

/** Kept answers in a JSON-ready form (the disk cache's `rest`): `[path, Error, Result as JSON text]`. */
export type RestHistoryValues = [path: string, error: number, result: string][]

/** The remote's REST answers about its history up to the fork block, memoised by path. */
export class RemoteRestHistory {
  readonly remote: RemoteNode
  /** Height of the fork block: the remote answers for heights up to it. */
  readonly height: number
  /**
   * Kept answers by path (with query), and their Result as JSON text (what the caches
   * write); bounded in bytes (its `limit`). The database watches it to write each
   * answer put or dropped.
   */
  readonly cache: AnswerCache<RestHistoryAnswer & { text: string }>
  /** Fetches under way, by path, so that concurrent reads share one. */
  readonly #loading = new Map<string, Promise<void>>()
  /** Told after each fetch (the disk cache schedules a write). */
  onFetched: (() => void) | undefined

  /** `historyLimit`: bytes of answers kept (the `fork.historyLimit` option; default `LIMIT_DEFAULTS.forkHistoryLimit`). */
  constructor(remote: RemoteNode, height: number, historyLimit?: number) {
    this.remote = remote
    this.height = height
    this.cache = new AnswerCache(historyLimit)
  }

  /** The remote's answer to `GET path`. Throws {@link ForkMiss} until fetched. */
  answer(path: string): RestHistoryAnswer {
    return this.answers([path])[0]!
  }

  /**
   * The remote's answers to `GET` of each of `paths`, in order. Throws one
   * {@link ForkMiss} for the paths not fetched yet, whose load fetches them concurrently
   * (rejecting with ForkRemoteError naming the path when the remote fails, with
   * {@link RemoteRestErrorAnswer} for an error answer that is not kept).
   */
  answers(paths: readonly string[]): RestHistoryAnswer[] {
    const found = this.cache.read(paths)
    if (found !== undefined) return found
    const missing = paths.filter((p) => !this.cache.has(p))
    throw new ForkMiss(`the remote's answer to ${missing.map((p) => `GET ${p}`).join(', ')}`, () => this.load(missing))
  }

  /**
   * Fetches the answers to `paths` not kept yet, concurrently; they stay pinned until
   * read ({@link answers}). Rejects as {@link answers}' load does.
   */
  async load(paths: readonly string[]): Promise<void> {
    try {
      await Promise.all(paths.filter((p) => !this.cache.has(p)).map((p) => this.#once(p)))
    } catch (err) {
      // The read fails, so it will not read what it fetched: those answers may be dropped.
      this.cache.unpin(paths)
      throw err
    }
  }

  /** Everything kept now, least recently used first (see {@link RestHistoryValues}). */
  values(): RestHistoryValues {
    return [...this.cache.entries()].map(([path]) => this.entry(path)!)
  }

  /** The kept answer to `GET path` in the form of {@link RestHistoryValues}, or `undefined` when none is kept. */
  entry(path: string): RestHistoryValues[number] | undefined {
    const kept = this.cache.peek(path)
    return kept === undefined ? undefined : [path, kept.Error, kept.text]
  }

  /** Takes answers kept before (the disk cache). Throws TypeError for a malformed entry, before taking any. */
  restore(values: RestHistoryValues): void {
    if (!Array.isArray(values)) throw new TypeError('fork cache: rest is not a list')
    const parsed = values.map((entry) => {
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== 'string' || !Number.isSafeInteger(entry[1]) || typeof entry[2] !== 'string')
        throw new TypeError('fork cache: malformed REST history entry')
      return [entry[0], { Error: entry[1], Result: parseLosslessJson(entry[2]), text: entry[2] }] as const
    })
    for (const [path, answer] of parsed) this.#keep(path, answer, false)
  }

  #once(path: string): Promise<void> {
    let running = this.#loading.get(path)
    if (running === undefined) {
      running = this.#fetch(path).finally(() => this.#loading.delete(path))
      this.#loading.set(path, running)
    }
    return running
  }

  async #fetch(path: string): Promise<void> {
    const { Error: code, Result: result } = await this.remote.rest(path)
    // The node's "not found" answers carry Result "" (reference §1.5): they are as lasting as
    // a success (blocks at or below the fork block do not change). An error with a text is
    // a failure of the moment: answered, not kept.
    if (code !== 0 && result !== '') throw new RemoteRestErrorAnswer(path, code, result)
    // Pinned until the read that missed it runs again and reads it (fork/answerCache.ts).
    this.#keep(path, { Error: code, Result: result, text: stringifyLosslessJson(result ?? null) }, true)
    this.onFetched?.()
  }

  #keep(path: string, answer: RestHistoryAnswer & { text: string }, pinned: boolean): void {
    this.cache.set(path, answer, path.length + answer.text.length, pinned)
  }
}
