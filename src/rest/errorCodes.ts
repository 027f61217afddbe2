/**
 * The REST surface's one table of errors: how each code of the registry
 * (src/errors/codes.ts) answers in the node's envelope, `Error` (its number) and
 * `Result` (the `Desc` follows from the number: rest/errors.ts `describe`). The router
 * renders anything a route threw through it (rest/router.ts).
 *
 * The node answers a failure it has no code for as 45001 INTERNAL ERROR with the
 * error's text as Result (reference §1.5), so that is every code's answer unless the
 * node has its own for it. A route that needs another code for the same error in its
 * context (post_raw_tx's pool refusals, -1 or 43001 by the path taken) converts it to a
 * RestError itself.
 */
import { DualnetError, type DualnetErrorCode } from '../errors/base.ts'
import { RestErrorCode } from './errors.ts'

/** How one code answers on REST. */
export type RestErrorConvention =
  | {
      /** The envelope's `Error`; `own`: the error's own numeric `code` (a RestError, a fork's remote answer). */
      readonly error: number | 'own'
      /** The envelope's `Result`: `message`, the error's message; `empty`, `""`; `own`, the error's own `result`. */
      readonly result: 'message' | 'empty' | 'own'
    }
  | {
      /** No envelope: the HTTP status the node answers (404 for a path no route serves). */
      readonly http: 404
    }

const INTERNAL: RestErrorConvention = { error: RestErrorCode.InternalError, result: 'message' }
const OWN: RestErrorConvention = { error: 'own', result: 'own' }

/** Every registered code's REST answer; the type makes a new code name its answer here. */
export const REST_ERROR_CONVENTIONS: { readonly [C in DualnetErrorCode]: RestErrorConvention } = {
  DUALNET_ERR_RPC: INTERNAL,
  DUALNET_ERR_SUBSCRIPTION_LIMIT: INTERNAL,
  DUALNET_ERR_DEVNET_CLOSED: INTERNAL,
  DUALNET_ERR_REST: OWN,
  DUALNET_ERR_REST_NOT_FOUND: { http: 404 },
  DUALNET_ERR_INVALID_OPTION: INTERNAL,
  DUALNET_ERR_FORK_OPTION: INTERNAL,
  DUALNET_ERR_INVALID_CONTROL: INTERNAL,
  DUALNET_ERR_FIXTURE_ANONYMOUS_FUNCTION: INTERNAL,
  DUALNET_ERR_TRANSACTION_REJECTED: INTERNAL,
  DUALNET_ERR_EXECUTION_REVERTED: INTERNAL,
  DUALNET_ERR_EXECUTION_FAILED: INTERNAL,
  DUALNET_ERR_UNKNOWN_BLOCK: INTERNAL,
  DUALNET_ERR_EXECUTION_TIMEOUT: INTERNAL,
  DUALNET_ERR_EXECUTION_ABORTED: INTERNAL,
  DUALNET_ERR_TRACE_TOO_LARGE: INTERNAL,
  DUALNET_ERR_TRACE_UNAVAILABLE: INTERNAL,
  DUALNET_ERR_PERSISTENCE: INTERNAL,
  DUALNET_ERR_CHAIN_MISMATCH: INTERNAL,
  DUALNET_ERR_UNSUPPORTED_VERSION: INTERNAL,
  DUALNET_ERR_CORRUPT_DATABASE: INTERNAL,
  DUALNET_ERR_INVALID_ADDRESS: INTERNAL,
  // Raw bytes the node does not deserialise: 43001 INVALID TRANSACTION with Result "" (reference §1.5).
  DUALNET_ERR_INVALID_TRANSACTION: { error: RestErrorCode.InvalidTransaction, result: 'empty' },
  DUALNET_ERR_DECODE: INTERNAL,
  DUALNET_ERR_EIP155_DECODE: INTERNAL,
  // Signatures that do not verify: 45021 with the node's text (reference §1.5 rejection 9).
  DUALNET_ERR_SIGNATURE_VERIFICATION: { error: RestErrorCode.VerifySignature, result: 'message' },
  DUALNET_ERR_INVALID_PUBLIC_KEY: INTERNAL,
  DUALNET_ERR_INVALID_PROGRAM: INTERNAL,
  DUALNET_ERR_SCRIPT: INTERNAL,
  DUALNET_ERR_UNSUPPORTED_SCRIPT: INTERNAL,
  DUALNET_ERR_INVALID_TOKEN_CALL: INTERNAL,
  DUALNET_ERR_NATIVE_EXECUTION: INTERNAL,
  DUALNET_ERR_FORK_REMOTE: INTERNAL,
  DUALNET_ERR_FORK_REMOTE_ANSWER: INTERNAL,
  // The remote answered a history path with an error: the fork answers it as given (rest/forkHistory.ts).
  DUALNET_ERR_FORK_REMOTE_REST_ANSWER: OWN,
  DUALNET_ERR_FORK_MISS: INTERNAL,
  DUALNET_ERR_NOT_FORKED: INTERNAL,
  DUALNET_ERR_GAS_SNAPSHOT_MISMATCH: INTERNAL,
  DUALNET_ERR_COVERAGE: INTERNAL,
  DUALNET_ERR_EXPLORER_REQUEST: INTERNAL,
}

/** What an `own` convention reads: the numeric code and Result the error carries. */
interface EnvelopeAnswer {
  readonly code: number
  readonly result: unknown
}

/**
 * The envelope's `Error` and `Result` for anything a route threw, by its code's
 * convention; `undefined` for a code whose answer is no envelope (HTTP 404). An error
 * that is not dualnet's answers 45001 with its message.
 */
export function restErrorOf(err: unknown): { code: number; result: unknown } | undefined {
  if (!(err instanceof DualnetError)) return { code: RestErrorCode.InternalError, result: err instanceof Error ? err.message : String(err) }
  const convention = REST_ERROR_CONVENTIONS[err.dualnetCode]
  if ('http' in convention) return undefined
  const own = err as unknown as EnvelopeAnswer
  const code = convention.error === 'own' ? own.code : convention.error
  const result = convention.result === 'own' ? own.result : convention.result === 'empty' ? '' : err.message
  return { code, result }
}
