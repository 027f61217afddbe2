/**
 * The JSON-RPC client of a fork's remote node: single calls and batches over HTTP
 * (global `fetch`), with a time-out per attempt and retries with back-off on the
 * failures that pass (network errors, HTTP 429 and 5xx). Every failure surfaces as a
 * {@link ForkRemoteError} that names the remote call, so that the request that needed
 * the value can say what it was waiting for.
 */

/** One JSON-RPC call to the remote: method and positional params. */
export interface RemoteCall {
  method: string
  params: readonly unknown[]
}

/** Tuning of the fork's requests to its remote (the `fork.remote` option); the defaults suit a node on a LAN or the internet. */
export interface RemoteOptions {
  /** Milliseconds one HTTP attempt may take; default 20,000. */
  timeout?: number
  /** Attempts after the first on a failure that may pass (network error, 429, 5xx); default 3. */
  retries?: number
  /** Milliseconds before the first retry; doubled for each later one (a 429's Retry-After wins); default 200. */
  backoff?: number
}

/**
 * A remote call failed: the remote could not be reached, answered an HTTP error, or
 * answered the call with a JSON-RPC error. `call` names it (`eth_getBalance(0x…, 0x64)`).
 */
export class ForkRemoteError extends Error {
  override name = 'ForkRemoteError'
  /** The remote call that failed, as `method(param, …)`. */
  readonly call: string
  /** The remote's JSON-RPC error object, when it answered one. */
  readonly remoteError: { code: number; message: string; data?: unknown } | undefined

  constructor(url: string, call: RemoteCall, reason: string, remoteError?: { code: number; message: string; data?: unknown }) {
    const text = describeCall(call)
    super(`fork: the remote call ${text} to ${url} failed: ${reason}`)
    this.call = text
    this.remoteError = remoteError
  }
}

/** A remote node speaking JSON-RPC over HTTP. */
export class RemoteNode {
  readonly url: string
  readonly #timeout: number
  readonly #retries: number
  readonly #backoff: number
  #nextId = 1
  /** Whether the remote answers batches; unknown until the first batch. */
  #batches: boolean | undefined
  /** Round trips made (HTTP requests that got an answer or failed), for the speed figures. */
  roundTrips = 0

  constructor(url: string, options: RemoteOptions = {}) {
    this.url = url
    this.#timeout = options.timeout ?? 20_000
    this.#retries = options.retries ?? 3
    this.#backoff = options.backoff ?? 200
  }

  /** Result of one call. Throws {@link ForkRemoteError}. */
  async call<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
    const call = { method, params }
    const answer = await this.#post(call, { jsonrpc: '2.0', id: this.#nextId++, method, params })
    return resultOf(this.url, call, answer) as T
  }

  /**
   * Results of `calls`, in order, in one HTTP request where the remote accepts batches
   * (one call at a time, concurrently, where it does not). Throws {@link ForkRemoteError}
   * naming the first call that failed.
   */
  async batch(calls: readonly RemoteCall[]): Promise<unknown[]> {
    if (calls.length === 1 || this.#batches === false) return Promise.all(calls.map((c) => this.call(c.method, c.params)))
    const first = this.#nextId
    this.#nextId += calls.length
    const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params }))
    const answer = await this.#post(calls[0]!, body)
    if (!Array.isArray(answer)) {
      // A node without batches answers one error object: ask one call at a time from now on.
      this.#batches = false
      return this.batch(calls)
    }
    this.#batches = true
    const byId = new Map<unknown, unknown>(answer.map((a) => [(a as { id?: unknown })?.id, a]))
    return calls.map((c, i) => resultOf(this.url, c, byId.get(first + i)))
  }

  /** POSTs `body`, retrying what may pass; resolves to the parsed JSON answer. */
  async #post(call: RemoteCall, body: unknown): Promise<unknown> {
    const text = JSON.stringify(body)
    let wait = this.#backoff
    for (let attempt = 0; ; attempt++) {
      let reason: string
      let retryAfter: number | undefined
      try {
        this.roundTrips++
        const response = await fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
          signal: AbortSignal.timeout(this.#timeout),
        })
        if (response.ok) {
          const raw = await response.text()
          try {
            return JSON.parse(raw)
          } catch {
            throw new ForkRemoteError(this.url, call, `the answer is not JSON: ${raw.slice(0, 120)}`)
          }
        }
        reason = `HTTP ${response.status} ${response.statusText}`.trim()
        if (response.status !== 429 && response.status < 500) throw new ForkRemoteError(this.url, call, reason)
        const header = Number(response.headers.get('retry-after'))
        if (Number.isFinite(header) && header > 0) retryAfter = header * 1000
        await response.body?.cancel()
      } catch (err) {
        if (err instanceof ForkRemoteError) throw err
        const e = err as Error & { cause?: { code?: string; message?: string } }
        reason = e.name === 'TimeoutError' ? `no answer within ${this.#timeout} ms` : (e.cause?.code ?? e.cause?.message ?? e.message)
      }
      if (attempt >= this.#retries) {
        throw new ForkRemoteError(this.url, call, `${reason} (${attempt + 1} attempt${attempt === 0 ? '' : 's'})`)
      }
      await new Promise((resolve) => setTimeout(resolve, retryAfter ?? wait))
      wait *= 2
    }
  }
}

/** The result of a JSON-RPC answer object; throws {@link ForkRemoteError} for an error or a malformed answer. */
function resultOf(url: string, call: RemoteCall, answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null) throw new ForkRemoteError(url, call, 'no answer to the call')
  const { error, result } = answer as { error?: { code: number; message: string; data?: unknown }; result?: unknown }
  if (error !== undefined && error !== null) throw new ForkRemoteError(url, call, `the remote answered ${error.code} ${error.message}`, error)
  if (!('result' in answer)) throw new ForkRemoteError(url, call, 'the answer has no result')
  return result
}

/** `method(param, …)` with params as JSON. */
function describeCall(call: RemoteCall): string {
  return `${call.method}(${call.params.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(', ')})`
}
