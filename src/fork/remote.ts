/**
 * The JSON-RPC client of a fork's remote node: single calls and batches over HTTP
 * (node:http / node:https with keep-alive connections), with a time-out per attempt and retries with back-off on the
 * failures that pass (network errors, HTTP 429 and 5xx). Every failure surfaces as a
 * {@link ForkRemoteError} that names the remote call, so that the request that needed
 * the value can say what it was waiting for.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { describeValue } from '../errors/describe.ts'
import type { Agent, IncomingMessage, request as httpRequest } from 'node:http'
import { parseLosslessJson } from '../util/losslessJson.ts'
import { LIMIT_DEFAULTS, MAX_FORK_RESPONSE_LIMIT } from '../core/limits.ts'

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
  /** Milliseconds before the first retry; doubled for each later one (a 429's Retry-After wins, up to `retryWaitLimit`); default 200. */
  backoff?: number
  /** Longest wait before one retry, in ms, whatever the back-off or a Retry-After asks; default `LIMIT_DEFAULTS.forkRetryWaitLimit` (1,000). */
  retryWaitLimit?: number
  /**
   * Milliseconds after a call's first attempt began within which its retries must run:
   * a retry whose wait would end past it is not made, and a retry's time-out is cut to
   * what is left. So a call takes at most the larger of `timeout` and this; default
   * `LIMIT_DEFAULTS.forkRetryBudget` (10,000).
   */
  retryBudget?: number
  /**
   * Largest answer taken, in bytes of the HTTP body; default `LIMIT_DEFAULTS.forkResponseLimit`
   * (256 MiB), at most `MAX_FORK_RESPONSE_LIMIT`. Counted as the answer streams in; past it
   * the request is aborted and the call fails (not retried: the remote would answer the same).
   */
  responseLimit?: number
}

/**
 * A remote call failed: the remote could not be reached, answered an HTTP error, or
 * answered the call with a JSON-RPC error. `call` names it (`eth_getBalance(0x…, 0x64)`).
 */
export class ForkRemoteError extends DualnetError {
  override name = 'ForkRemoteError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_FORK_REMOTE'
  /** The remote call that failed, as `method(param, …)`. */
  readonly call: string
  /** The remote's JSON-RPC error object, when it answered one. */
  readonly remoteError: { code: number; message: string; data?: unknown } | undefined
  /** Why it failed (the message's end): `ECONNREFUSED (4 attempts)`, `HTTP 404 Not Found`. */
  readonly reason: string

  constructor(url: string, call: RemoteCall, reason: string, remoteError?: { code: number; message: string; data?: unknown }) {
    const text = describeCall(call)
    super(`fork: the remote call ${text} to ${url} failed: ${reason}`)
    this.call = text
    this.reason = reason
    this.remoteError = remoteError
  }
}

/** A REST answer's envelope fields (spec: Action, Desc, Error, Result, Version). */
export interface RestAnswer {
  Action: string
  /** 0 for success, else the node's error code. */
  Error: number
  Result: unknown
}

/** A remote node speaking JSON-RPC over HTTP, and optionally its REST interface. */
export class RemoteNode {
  readonly url: string
  /** Base URL of the remote's REST interface (`http://host:20334`), when given (`fork.restUrl`). */
  readonly restUrl: string | undefined
  readonly #timeout: number
  readonly #retries: number
  readonly #backoff: number
  readonly #responseLimit: number
  readonly #retryWaitLimit: number
  readonly #retryBudget: number
  #nextId = 1
  /** Whether the remote answers batches; unknown until the first batch. */
  #batches: boolean | undefined
  /** Calls of this turn not sent yet (see {@link call}). */
  #queued: QueuedCall[] = []
  /** Round trips made (HTTP requests that got an answer or failed), for the speed figures. */
  roundTrips = 0
  /**
   * Keep-alive connections to the remote, by protocol. node:http rather than the global
   * `fetch`: undici's fetch costs about three times the CPU per request (web streams,
   * an AbortSignal timer, header lists), and a fork makes one request per value it
   * reads (measured: 200 concurrent eth_getStorageAt, 314 ms against 97 ms of CPU).
   * Idle sockets do not keep the process alive (the agent unrefs them). Each protocol's
   * module is loaded on its first request ({@link transport}), so that a devnet without
   * a fork, or with an http: remote, never loads node:https and TLS.
   */
  readonly #transports: { http?: Transport; https?: Transport } = {}

  constructor(url: string, options: RemoteOptions = {}, restUrl?: string) {
    this.url = url
    this.restUrl = restUrl
    this.#timeout = options.timeout ?? 20_000
    this.#retries = options.retries ?? 3
    this.#backoff = options.backoff ?? 200
    this.#retryWaitLimit = options.retryWaitLimit ?? LIMIT_DEFAULTS.forkRetryWaitLimit
    this.#retryBudget = options.retryBudget ?? LIMIT_DEFAULTS.forkRetryBudget
    this.#responseLimit = Math.min(options.responseLimit ?? LIMIT_DEFAULTS.forkResponseLimit, MAX_FORK_RESPONSE_LIMIT)
  }

  /**
   * Result of one call. Throws {@link ForkRemoteError}. Calls made in the same turn of
   * the event loop (the misses of concurrent executions, an account's three reads) go
   * to the remote together, in one JSON-RPC batch of up to {@link BATCH_SIZE} calls
   * where the remote accepts batches: one HTTP exchange instead of one per value, which
   * saves the round trips and most of the CPU of a fork's reads.
   */
  call<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
    return new Promise<unknown>((resolve, reject) => {
      this.#queued.push({ call: { method, params }, resolve, reject })
      if (this.#queued.length === 1) setImmediate(() => this.#flush())
    }) as Promise<T>
  }

  /**
   * Results of `calls`, in order, in one HTTP request where the remote accepts batches
   * (one call at a time, concurrently, where it does not), with any other calls of the
   * same turn. Throws {@link ForkRemoteError} naming the first call that failed.
   */
  async batch(calls: readonly RemoteCall[]): Promise<unknown[]> {
    return Promise.all(calls.map((c) => this.call(c.method, c.params)))
  }

  /** Sends the calls queued in this turn: in batches where the remote takes them, else one by one. */
  #flush(): void {
    const queued = this.#queued
    this.#queued = []
    if (queued.length === 1 || this.#batches === false) {
      for (const q of queued) this.#single(q)
      return
    }
    for (let i = 0; i < queued.length; i += BATCH_SIZE) void this.#sendBatch(queued.slice(i, i + BATCH_SIZE))
  }

  /** Sends one queued call on its own. */
  #single(q: QueuedCall): void {
    this.#post(q.call, { jsonrpc: '2.0', id: this.#nextId++, method: q.call.method, params: q.call.params }).then((answer) => settle(q, this.url, answer), q.reject)
  }

  /** Sends `queued` (two or more calls) as one batch; a remote that refuses batches gets them one by one, from now on. */
  async #sendBatch(queued: QueuedCall[]): Promise<void> {
    const first = this.#nextId
    this.#nextId += queued.length
    const body = queued.map((q, i) => ({ jsonrpc: '2.0', id: first + i, method: q.call.method, params: q.call.params }))
    let answer: unknown
    try {
      answer = await this.#post(queued[0]!.call, body)
    } catch (err) {
      // The exchange failed as a whole: each call's error names that call.
      for (const q of queued) q.reject(err instanceof ForkRemoteError ? new ForkRemoteError(this.url, q.call, err.reason, err.remoteError) : err)
      return
    }
    if (!Array.isArray(answer)) {
      // A node without batches answers one error object: ask one call at a time from now on.
      this.#batches = false
      for (const q of queued) this.#single(q)
      return
    }
    this.#batches = true
    const byId = new Map<unknown, unknown>(answer.map((a) => [(a as { id?: unknown })?.id, a]))
    for (const [i, q] of queued.entries()) settle(q, this.url, byId.get(first + i))
  }

  /**
   * GETs `path` (`/api/v1/balancev2/<addr>`) from the remote's REST interface (`restUrl`)
   * and resolves to its envelope's `Action`, `Error` and `Result` (an `Error` other than 0
   * is the caller's to judge: "not found" answers are errors there). Throws
   * {@link ForkRemoteError} naming `GET <path>` when the remote fails or answers no envelope.
   */
  async rest(path: string): Promise<RestAnswer> {
    if (this.restUrl === undefined) throw new TypeError('fork: the remote has no REST URL')
    const call = { method: `GET ${path}`, params: [] }
    // Whole numbers beyond 2^53 (a header's ConsensusData) stay exact: history is answered byte-equal.
    const answer = (await this.#send(call, this.restUrl, 'GET', undefined, `${this.restUrl.replace(/\/+$/, '')}${path}`, parseLosslessJson)) as Partial<RestAnswer> | null
    if (typeof answer !== 'object' || answer === null || typeof answer.Error !== 'number') throw new ForkRemoteError(this.restUrl, call, 'the answer is not a REST envelope')
    // Action names the handler that answered (nativeFetcher.ts tells v1 from v2 allowances by it); anything but a string names none.
    return { Action: typeof answer.Action === 'string' ? answer.Action : '', Error: answer.Error, Result: answer.Result }
  }

  /** POSTs `body`, retrying what may pass; resolves to the parsed JSON answer. */
  #post(call: RemoteCall, body: unknown): Promise<unknown> {
    return this.#send(call, this.url, 'POST', JSON.stringify(body))
  }

  /** Closes the idle keep-alive connections (the devnet closes). */
  close(): void {
    this.#transports.http?.agent.destroy()
    this.#transports.https?.agent.destroy()
  }

  /**
   * Sends one HTTP request for `call` to `target`, retrying what may pass; resolves to
   * the answer parsed by `parse`. Errors name `url`. Each wait before a retry (the
   * back-off, or a 429's or 503's Retry-After) lasts at most `retryWaitLimit`, and no
   * retry starts, nor runs, past `retryBudget` after the first attempt began: a remote
   * that asks for an hour (`Retry-After: 3600`) fails the call in seconds instead.
   */
  async #send(call: RemoteCall, url: string, method: 'GET' | 'POST', body: string | undefined, target = url, parse: (text: string) => unknown = JSON.parse): Promise<unknown> {
    const deadline = Date.now() + this.#retryBudget
    let wait = this.#backoff
    let timeout = this.#timeout
    for (let attempt = 0; ; attempt++) {
      let reason: string
      let retryAfter: number | undefined
      try {
        this.roundTrips++
        const response = await this.#request(target, method, body, timeout)
        if (response.status >= 200 && response.status < 300) {
          try {
            return parse(response.text)
          } catch {
            throw new ForkRemoteError(url, call, `the answer is not JSON: ${response.text.slice(0, 120)}`)
          }
        }
        reason = `HTTP ${response.status} ${response.statusText}`.trim()
        if (response.status !== 429 && response.status < 500) throw new ForkRemoteError(url, call, reason)
        retryAfter = retryAfterMs(response.retryAfter)
        if (retryAfter !== undefined && retryAfter > this.#retryWaitLimit) {
          reason += `, Retry-After ${Math.ceil(retryAfter / 1000)} s (waits are capped at ${this.#retryWaitLimit} ms: fork.remote.retryWaitLimit)`
        }
      } catch (err) {
        if (err instanceof ForkRemoteError) throw err
        if ((err as Error).name === ANSWER_TOO_LARGE) {
          throw new ForkRemoteError(url, call, `the answer is larger than ${this.#responseLimit} bytes (fork.remote.responseLimit); the request was aborted`)
        }
        const e = err as Error & { code?: string }
        reason = e.name === 'TimeoutError' ? e.message : (e.code ?? e.message)
      }
      const attempts = `${attempt + 1} attempt${attempt === 0 ? '' : 's'}`
      if (attempt >= this.#retries) throw new ForkRemoteError(url, call, `${reason} (${attempts})`)
      const pause = Math.min(retryAfter ?? wait, this.#retryWaitLimit)
      // A retry needs the pause and some time to run in: none is left past the budget.
      timeout = Math.min(this.#timeout, deadline - Date.now() - pause)
      if (timeout <= 0) {
        throw new ForkRemoteError(url, call, `${reason} (${attempts}; the retry budget of ${this.#retryBudget} ms is spent: fork.remote.retryBudget)`)
      }
      await new Promise((resolve) => setTimeout(resolve, pause))
      wait *= 2
    }
  }

  /**
   * One HTTP exchange, given `timeout` ms: the status, its text, the Retry-After header
   * and the body as text. Rejects with the socket's error (its `code`: ECONNREFUSED, ECONNRESET, …), a
   * TimeoutError when no whole answer came within the time-out, or an error named
   * {@link ANSWER_TOO_LARGE} as soon as the body (its Content-Length, or the bytes received) passes the response limit.
   */
  #request(target: string, method: 'GET' | 'POST', body: string | undefined, timeout: number): Promise<{ status: number; statusText: string; retryAfter: string | undefined; text: string }> {
    return new Promise((resolve, reject) => {
      const protocol = target.startsWith('https:') ? 'https' : 'http'
      const { request, agent } = (this.#transports[protocol] ??= transport(protocol))
      const headers: Record<string, string | number> = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
      const limit = this.#responseLimit
      const req = request(target, { method, headers, agent }, (res: IncomingMessage) => {
        const chunks: Buffer[] = []
        let received = 0
        // Bounded while streaming: a body past the limit is never held, joined or decoded.
        const tooLarge = () => {
          chunks.length = 0
          const err = new Error(`the answer is larger than ${limit} bytes`)
          err.name = ANSWER_TOO_LARGE
          fail(err)
          req.destroy(err)
        }
        res.on('error', fail)
        if (Number(res.headers['content-length']) > limit) return tooLarge()
        res.on('data', (chunk: Buffer) => {
          if (received > limit) return
          received += chunk.length
          if (received > limit) tooLarge()
          else chunks.push(chunk)
        })
        res.on('end', () => {
          clearTimeout(timer)
          const retryAfter = res.headers['retry-after']
          resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', retryAfter, text: Buffer.concat(chunks).toString('utf8') })
        })
      })
      const timer = setTimeout(() => {
        const err = new Error(`no answer within ${timeout} ms`)
        err.name = 'TimeoutError'
        req.destroy(err)
      }, timeout)
      function fail(err: Error): void {
        clearTimeout(timer)
        reject(err)
      }
      req.on('error', fail)
      req.end(body)
    })
  }
}

/**
 * Milliseconds a Retry-After header asks for (RFC 9110 §10.2.3: delay-seconds, or an
 * HTTP-date), or `undefined` when it is absent, malformed or not in the future.
 */
function retryAfterMs(header: string | undefined): number | undefined {
  if (header === undefined) return undefined
  const text = header.trim()
  // delay-seconds; fractions are taken too (a test remote's "0.05").
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - Date.now()
  return Number.isFinite(ms) && ms > 0 ? ms : undefined
}

/** The name of the error a request is destroyed with when its answer passes the response limit (as `TimeoutError` names a time-out). */
const ANSWER_TOO_LARGE = 'AnswerTooLarge'

/** Most calls in one batch to the remote. */
const BATCH_SIZE = 100

/** A call waiting for its turn's batch. */
interface QueuedCall {
  call: RemoteCall
  resolve: (result: unknown) => void
  reject: (err: unknown) => void
}

/** Settles `q` with the result of its answer object, or the error it holds. */
function settle(q: QueuedCall, url: string, answer: unknown): void {
  try {
    q.resolve(resultOf(url, q.call, answer))
  } catch (err) {
    q.reject(err)
  }
}

/** The result of a JSON-RPC answer object; throws {@link ForkRemoteError} for an error or a malformed answer. */
function resultOf(url: string, call: RemoteCall, answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null) throw new ForkRemoteError(url, call, 'no answer to the call')
  const { error, result } = answer as { error?: unknown; result?: unknown }
  if (error !== undefined && error !== null) {
    // Only a well-formed error object is the remote's error (history answers it again); any other is quoted, never templated.
    const { code, message } = (typeof error === 'object' ? error : {}) as { code?: unknown; message?: unknown }
    if (!Number.isSafeInteger(code) || typeof message !== 'string') throw new ForkRemoteError(url, call, `the remote answered the malformed error ${describeValue(error)}`)
    throw new ForkRemoteError(url, call, `the remote answered ${code} ${message}`, error as { code: number; message: string; data?: unknown })
  }
  if (!('result' in answer)) throw new ForkRemoteError(url, call, 'the answer has no result')
  return result
}

/** `method(param, …)` with params as JSON. */
function describeCall(call: RemoteCall): string {
  if (call.params.length === 0 && call.method.startsWith('GET ')) return call.method
  return `${call.method}(${call.params.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(', ')})`
}

/** One protocol's request function and its keep-alive agent. */
interface Transport {
  request: typeof httpRequest
  agent: Agent
}

/**
 * node:http's or node:https' request function with a new keep-alive agent. The module is
 * taken with `process.getBuiltinModule` (Node ≥ 20.16), not an ES `import`: on Node 22
 * and later, importing node:http as an ES module evaluates its lazy `WebSocket`,
 * `CloseEvent` and `MessageEvent` exports, which load undici (about 25 ms of a cold
 * start, measured on Node 22.23), and the fork's client uses none of them.
 */
function transport(protocol: 'http' | 'https'): Transport {
  const { request, Agent: KeepAliveAgent } = process.getBuiltinModule(protocol === 'https' ? 'node:https' : 'node:http')
  return { request, agent: new KeepAliveAgent({ keepAlive: true }) }
}
