/**
 * The EIP-1193 provider's one table of errors (`devnet.request`, `devnet.rpc`): the
 * code each registered error (src/errors/codes.ts) carries when the provider rejects
 * with it. EIP-1193 gives a JSON-RPC error its JSON-RPC code, so every code but the
 * provider's own failures answers as on JSON-RPC (rpc/errorCodes.ts).
 */
import type { DualnetErrorCode } from '../errors/base.ts'
import { RpcError, RpcErrorCode } from '../rpc/errors.ts'

/** The provider error codes of EIP-1193 ("Provider Errors"). */
export const Eip1193ErrorCode = {
  /** The user rejected the request. */
  UserRejectedRequest: 4001,
  /** The requested method and/or account has not been authorized by the user. */
  Unauthorized: 4100,
  /** The provider does not support the requested method. */
  UnsupportedMethod: 4200,
  /** The provider is disconnected from all chains (a closed devnet). */
  Disconnected: 4900,
  /** The provider is not connected to the requested chain. */
  ChainDisconnected: 4901,
} as const

/** A code's EIP-1193 code: a number, or `rpc` for its JSON-RPC code (EIP-1193: "the JSON-RPC error's code"). */
export type Eip1193ErrorConvention = number | 'rpc'

/** Every registered code's EIP-1193 code; the type makes a new code name its answer here. */
export const EIP1193_ERROR_CONVENTIONS: { readonly [C in DualnetErrorCode]: Eip1193ErrorConvention } = {
  DUALNET_ERR_RPC: 'rpc',
  DUALNET_ERR_SUBSCRIPTION_LIMIT: 'rpc',
  DUALNET_ERR_DEVNET_CLOSED: Eip1193ErrorCode.Disconnected,
  DUALNET_ERR_REST: 'rpc',
  DUALNET_ERR_REST_NOT_FOUND: 'rpc',
  DUALNET_ERR_INVALID_OPTION: 'rpc',
  DUALNET_ERR_FORK_OPTION: 'rpc',
  DUALNET_ERR_INVALID_CONTROL: 'rpc',
  DUALNET_ERR_FIXTURE_ANONYMOUS_FUNCTION: 'rpc',
  DUALNET_ERR_TRANSACTION_REJECTED: 'rpc',
  DUALNET_ERR_EXECUTION_REVERTED: 'rpc',
  DUALNET_ERR_EXECUTION_FAILED: 'rpc',
  DUALNET_ERR_UNKNOWN_BLOCK: 'rpc',
  DUALNET_ERR_EXECUTION_TIMEOUT: 'rpc',
  DUALNET_ERR_EXECUTION_ABORTED: 'rpc',
  DUALNET_ERR_TRACE_TOO_LARGE: 'rpc',
  DUALNET_ERR_TRACE_UNAVAILABLE: 'rpc',
  DUALNET_ERR_PERSISTENCE: 'rpc',
  DUALNET_ERR_CHAIN_MISMATCH: 'rpc',
  DUALNET_ERR_UNSUPPORTED_VERSION: 'rpc',
  DUALNET_ERR_CORRUPT_DATABASE: 'rpc',
  DUALNET_ERR_INVALID_ADDRESS: 'rpc',
  DUALNET_ERR_INVALID_TRANSACTION: 'rpc',
  DUALNET_ERR_DECODE: 'rpc',
  DUALNET_ERR_EIP155_DECODE: 'rpc',
  DUALNET_ERR_SIGNATURE_VERIFICATION: 'rpc',
  DUALNET_ERR_INVALID_PUBLIC_KEY: 'rpc',
  DUALNET_ERR_INVALID_PROGRAM: 'rpc',
  DUALNET_ERR_SCRIPT: 'rpc',
  DUALNET_ERR_UNSUPPORTED_SCRIPT: 'rpc',
  DUALNET_ERR_INVALID_TOKEN_CALL: 'rpc',
  DUALNET_ERR_NATIVE_EXECUTION: 'rpc',
  DUALNET_ERR_FORK_REMOTE: 'rpc',
  DUALNET_ERR_FORK_REMOTE_ANSWER: 'rpc',
  DUALNET_ERR_FORK_REMOTE_REST_ANSWER: 'rpc',
  DUALNET_ERR_FORK_MISS: 'rpc',
  DUALNET_ERR_NOT_FORKED: 'rpc',
  DUALNET_ERR_GAS_SNAPSHOT_MISMATCH: 'rpc',
  DUALNET_ERR_COVERAGE: 'rpc',
  DUALNET_ERR_EXPLORER_REQUEST: 'rpc',
}

/**
 * A call to a devnet after `close()`: EIP-1193's "disconnected" (code 4900, message
 * `the devnet is closed`), on every call of every surface of that devnet. An
 * {@link RpcError}, so that providers and clients read its code as any other.
 */
export class DevnetClosedError extends RpcError {
  override name = 'DevnetClosedError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_DEVNET_CLOSED'

  constructor() {
    super(Eip1193ErrorCode.Disconnected, 'the devnet is closed')
  }
}

/**
 * What `devnet.request` (the EIP-1193 entry) rejects with for `err`. An execution
 * revert (JSON-RPC code 3, EIP-1474) becomes go-ethereum's older answer for it, -32000
 * with the same message and revert `data`, `details` "execution reverted" and the
 * code-3 error as its cause; every other error passes as it is.
 *
 * Why: viem's `custom()` transport (what hardhat-viem and any EIP-1193 wrapper use)
 * maps a code it does not list (3 is not listed: viem src/utils/buildRequest.ts) to
 * UnknownRpcError, which `shouldRetry` retries with back-off (150 + 300 + 600 ms by
 * default) before the revert reaches the caller; -32000 is InvalidInputRpcError, which
 * it does not retry, and viem reads a revert from it (`getContractError`: -32000 with
 * details "execution reverted" and data; `getNodeError`: the cause's code 3). ethers'
 * BrowserProvider and Hardhat read the message and `data`, which are unchanged.
 * `devnet.rpc` and the HTTP server still answer code 3.
 */
export function toProviderError(err: unknown): unknown {
  if (!(err instanceof RpcError) || err.code !== RpcErrorCode.ExecutionReverted) return err
  const answer = new RpcError(RpcErrorCode.ServerError, err.message, { data: err.data, cause: err })
  Object.defineProperty(answer, 'details', { value: 'execution reverted', enumerable: false })
  return answer
}
