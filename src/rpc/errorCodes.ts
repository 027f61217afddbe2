/**
 * The JSON-RPC surface's one table of errors: how each code of the registry
 * (src/errors/codes.ts) answers as a JSON-RPC error object. The messages stay the
 * errors' own (go-ethereum's texts, reference §6.1), except where go-ethereum answers
 * another text for the same failure (`header not found`).
 *
 * `toRpcError` (rpc/dispatch.ts) renders anything a method threw through this table;
 * an error that is not dualnet's answers -32000 with its message, as go-ethereum's
 * server does for any error without a code.
 */
import type { DualnetError, DualnetErrorCode } from '../errors/base.ts'
import { toHex } from '../util/hex.ts'
import { RpcError, RpcErrorCode } from './errors.ts'

/** How one code answers on JSON-RPC. */
export interface RpcErrorConvention {
  /**
   * The error object's `code`; `own`: the error's own numeric `code` (an RpcError, or
   * a fork's remote answer that the fork passes on as given).
   */
  readonly code: number | 'own'
  /** The text clients see instead of the error's message; absent: the message as is. */
  readonly message?: string
  /**
   * The error object's `data`: `revert`, the revert data as 0x-hex (the error's
   * `data` bytes); `own`, the error's own `data`; absent: none.
   */
  readonly data?: 'revert' | 'own'
}

const SERVER: RpcErrorConvention = { code: RpcErrorCode.ServerError }
const OWN: RpcErrorConvention = { code: 'own', data: 'own' }

/** Every registered code's JSON-RPC answer; the type makes a new code name its answer here. */
export const RPC_ERROR_CONVENTIONS: { readonly [C in DualnetErrorCode]: RpcErrorConvention } = {
  DUALNET_ERR_RPC: OWN,
  DUALNET_ERR_SUBSCRIPTION_LIMIT: OWN,
  // EIP-1193's 4900 on every surface: a closed devnet answers nothing else.
  DUALNET_ERR_DEVNET_CLOSED: OWN,
  DUALNET_ERR_REST: SERVER,
  DUALNET_ERR_REST_NOT_FOUND: SERVER,
  DUALNET_ERR_INVALID_OPTION: SERVER,
  DUALNET_ERR_FORK_OPTION: SERVER,
  DUALNET_ERR_INVALID_CONTROL: SERVER,
  DUALNET_ERR_FIXTURE_ANONYMOUS_FUNCTION: SERVER,
  DUALNET_ERR_TRANSACTION_REJECTED: SERVER,
  // EIP-1474 / go-ethereum 1.9.15+: a revert is code 3 with the revert data.
  DUALNET_ERR_EXECUTION_REVERTED: { code: RpcErrorCode.ExecutionReverted, data: 'revert' },
  DUALNET_ERR_EXECUTION_FAILED: SERVER,
  // go-ethereum's text for a block it does not have (internal/ethapi: `header not found`).
  DUALNET_ERR_UNKNOWN_BLOCK: { code: RpcErrorCode.ServerError, message: 'header not found' },
  DUALNET_ERR_EXECUTION_TIMEOUT: SERVER,
  DUALNET_ERR_EXECUTION_ABORTED: SERVER,
  DUALNET_ERR_TRACE_TOO_LARGE: SERVER,
  DUALNET_ERR_TRACE_UNAVAILABLE: SERVER,
  DUALNET_ERR_PERSISTENCE: SERVER,
  DUALNET_ERR_CHAIN_MISMATCH: SERVER,
  DUALNET_ERR_UNSUPPORTED_VERSION: SERVER,
  DUALNET_ERR_CORRUPT_DATABASE: SERVER,
  // A bad address in a parameter is the caller's mistake: -32602, as any other bad parameter.
  DUALNET_ERR_INVALID_ADDRESS: { code: RpcErrorCode.InvalidParams },
  DUALNET_ERR_INVALID_TRANSACTION: SERVER,
  DUALNET_ERR_DECODE: SERVER,
  DUALNET_ERR_EIP155_DECODE: SERVER,
  DUALNET_ERR_SIGNATURE_VERIFICATION: SERVER,
  DUALNET_ERR_INVALID_PUBLIC_KEY: SERVER,
  DUALNET_ERR_INVALID_PROGRAM: SERVER,
  DUALNET_ERR_SCRIPT: SERVER,
  DUALNET_ERR_UNSUPPORTED_SCRIPT: SERVER,
  DUALNET_ERR_INVALID_TOKEN_CALL: SERVER,
  DUALNET_ERR_NATIVE_EXECUTION: SERVER,
  DUALNET_ERR_FORK_REMOTE: SERVER,
  // The remote answered a history call with this error: the fork answers it as the remote did (rpc/forkPolicy.ts).
  DUALNET_ERR_FORK_REMOTE_ANSWER: OWN,
  DUALNET_ERR_FORK_REMOTE_REST_ANSWER: SERVER,
  DUALNET_ERR_FORK_MISS: SERVER,
  DUALNET_ERR_NOT_FORKED: SERVER,
  DUALNET_ERR_GAS_SNAPSHOT_MISMATCH: SERVER,
  DUALNET_ERR_COVERAGE: SERVER,
  DUALNET_ERR_EXPLORER_REQUEST: SERVER,
}

/** What an `own` convention reads: the numeric code and data the error carries. */
interface WireAnswer {
  readonly code: number
  readonly data?: unknown
}

/**
 * The RpcError that `err` answers as, by its code's convention: an RpcError is
 * answered as it is; any other gets a new RpcError with `err` as its cause.
 */
export function rpcErrorOf(err: DualnetError): RpcError {
  if (err instanceof RpcError) return err
  const convention = RPC_ERROR_CONVENTIONS[err.dualnetCode]
  const code = convention.code === 'own' ? (err as unknown as WireAnswer).code : convention.code
  const data = convention.data === 'own' ? (err as unknown as WireAnswer).data : convention.data === 'revert' ? toHex((err as unknown as { data: Uint8Array }).data) : undefined
  return new RpcError(code, convention.message ?? err.message, data === undefined ? { cause: err } : { data, cause: err })
}
