/**
 * The default of every limit option, written once: createDevnet's options, the
 * CLI's flags (`--batch-limit` …) and the docs (docs/limits.md) take them from here.
 * Units: `bodyLimit`, `batchResponseLimit`, `traceSizeLimit`, `stateLimit`, `wsBufferLimit`, `forkHistoryLimit` and `forkResponseLimit` in bytes;
 * `hexLimit` in hex digits; `traceTimeout`, `batchTraceTimeout`, `forkRetryWaitLimit` and `forkRetryBudget` in milliseconds;
 * the rest are counts.
 */
export const LIMIT_DEFAULTS = Object.freeze({
  /** Largest request body either server accepts (5 MiB, go-ethereum's `defaultBodyLimit`). */
  bodyLimit: 5 * 1024 * 1024,
  /** Most requests in one JSON-RPC batch (go-ethereum's `BatchRequestLimit`). */
  batchLimit: 1_000,
  /** Longest string in a request's params, in hex digits after `0x` (1 MiB of DATA). */
  hexLimit: 2 * 1024 * 1024,
  /** Deepest nesting of arrays and objects in a request. */
  jsonDepthLimit: 100,
  /** Widest span toBlock - fromBlock of one log query (the real node's, reference §6.2). */
  logsBlockRange: 100_000,
  /** Most logs one query answers. */
  logsResultLimit: 10_000,
  /** Most installed polling filters. */
  filterLimit: 10_000,
  /** Most live eth_subscribe subscriptions, all connections together. */
  subscriptionLimit: 10_000,
  /** Largest struct-log trace, in bytes of JSON. */
  traceSizeLimit: 128 * 1024 * 1024,
  /** Most blocks one mine call may add. */
  mineLimit: 1_000_000,
  /** Bytes of answers after which a batch's remaining requests are refused (go-ethereum's `BatchResponseMaxSize`). */
  batchResponseLimit: 25_000_000,
  /** Longest one trace runs, in ms (go-ethereum's default trace timeout). */
  traceTimeout: 5_000,
  /** Milliseconds the trace calls of one batch may run in all. */
  batchTraceTimeout: 10_000,
  /** Largest state document anvil_loadState reads, in bytes of JSON after inflating. */
  stateLimit: 64 * 1024 * 1024,
  /**
   * Bytes a WebSocket client may leave unread (the socket's `bufferedAmount`) before it
   * is closed with 1008 (16 MiB: eight blocks of newHeads to 2,000 subscriptions).
   */
  wsBufferLimit: 16 * 1024 * 1024,
  /**
   * Bytes of a fork's history answers kept (fork/answerCache.ts), in memory and in its
   * database, for each of the JSON-RPC and REST histories: their keys and answers as JSON
   * text. Least recently used first out; a dropped answer is fetched again when asked.
   */
  forkHistoryLimit: 64 * 1024 * 1024,
  /**
   * Largest answer a fork takes from its remote, in bytes of the HTTP body (a batch's
   * whole answer, a REST envelope): counted as it streams in and the request aborted past
   * it, so nothing larger becomes a string or reaches the JSON parser (an answer above
   * the engine's longest string, 512 MiB, crashed the process: issue 35).
   * 256 MiB: twice traceSizeLimit, for a remote's trace the fork forwards.
   */
  forkResponseLimit: 256 * 1024 * 1024,
  /**
   * Longest wait before a retry of a fork's remote call, in ms: a back-off or a 429's
   * Retry-After (3600 s wedged the devnet: issue 35) is cut to it. 1 s: the back-off of
   * three retries (200, 400, 800 ms) stays as it was.
   */
  forkRetryWaitLimit: 1_000,
  /**
   * Milliseconds within which a fork's remote call makes its retries, counted from its
   * first attempt (fork/remote.ts): Anvil fails such a read after about 5 s, go-ethereum's
   * client does not retry.
   */
  forkRetryBudget: 10_000,
})

/**
 * Highest `fork.remote.responseLimit`: V8's longest string (2^29 - 24 UTF-16 units on
 * 64-bit), so a body within the limit always decodes to a string (UTF-8 never gives more
 * units than bytes).
 */
export const MAX_FORK_RESPONSE_LIMIT = 2 ** 29 - 24
