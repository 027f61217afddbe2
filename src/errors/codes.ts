/**
 * The one registry of dualnet's error codes, in the way of fastify's `FST_ERR_*` table:
 * every error class of the package carries one of these stable strings as
 * `dualnetCode` (src/errors/base.ts), and each surface maps a code to its own
 * convention in one table (JSON-RPC: src/rpc/errorCodes.ts; REST: src/rest/errorCodes.ts;
 * EIP-1193: src/devnet/providerErrors.ts). A code never changes meaning once released;
 * a new failure gets a new code.
 *
 * This module sits at the bottom of the layering: it imports nothing of dualnet's, so
 * that chain/, state/, evm/ and native/ can name their codes.
 */

/** What the registry says of one code. */
export interface DualnetErrorCodeInfo {
  /** The class that carries the code (its `name`). */
  readonly className: string
  /** What the code means, one phrase for the docs' table. */
  readonly summary: string
  /** The documentation page (and section) that explains it, relative to the package root. */
  readonly docsPath: string
}

const API = 'docs/api.md#errors'
const FORK = 'docs/fork.md#when-the-remote-fails'
const NATIVE = 'docs/native-transactions.md'
const PERSISTENCE = 'docs/persistence.md'
const TRACES = 'docs/debugging.md#traces'

/**
 * Every code, by its stable string. The key is the code; `className` names the class
 * that carries it (ExecutionFailedError carries one of two, by whether it reverted).
 */
export const DUALNET_ERROR_CODES = {
  DUALNET_ERR_RPC: { className: 'RpcError', summary: 'an answer already in JSON-RPC terms (its own code, message and data)', docsPath: API },
  DUALNET_ERR_SUBSCRIPTION_LIMIT: { className: 'SubscriptionLimitError', summary: 'a subscription limit was reached', docsPath: 'docs/limits.md' },
  DUALNET_ERR_DEVNET_CLOSED: { className: 'DevnetClosedError', summary: 'a call to a devnet after `close()`', docsPath: API },
  DUALNET_ERR_REST: { className: 'RestError', summary: "an answer already in REST terms (the node's Error code and Result)", docsPath: 'docs/rest.md' },
  DUALNET_ERR_REST_NOT_FOUND: { className: 'RestNotFoundError', summary: "a REST path and method no route serves (the node's HTTP 404)", docsPath: API },
  DUALNET_ERR_INVALID_OPTION: { className: 'InvalidOptionError', summary: 'an option that is unknown or holds a value it cannot take', docsPath: 'docs/options.md#option-errors' },
  DUALNET_ERR_FORK_OPTION: { className: 'ForkOptionError', summary: 'the option `fork` is malformed, or the remote (or the database) cannot be forked where asked', docsPath: 'docs/fork.md' },
  DUALNET_ERR_INVALID_CONTROL: { className: 'InvalidControlError', summary: 'a control called with a value it cannot take; nothing changed', docsPath: 'docs/controls.md' },
  DUALNET_ERR_FIXTURE_ANONYMOUS_FUNCTION: {
    className: 'FixtureAnonymousFunctionError',
    summary: 'loadFixture given an inline function it cannot find again',
    docsPath: 'docs/controls.md#fixtures-and-the-vitest-helper',
  },
  DUALNET_ERR_TRANSACTION_REJECTED: { className: 'TransactionRejectedError', summary: 'a transaction refused before inclusion; nothing changed', docsPath: API },
  DUALNET_ERR_EXECUTION_REVERTED: { className: 'ExecutionFailedError', summary: 'a call or estimate reverted (the revert data travels with it)', docsPath: API },
  DUALNET_ERR_EXECUTION_FAILED: { className: 'ExecutionFailedError', summary: 'a call or estimate failed in the EVM otherwise (out of gas, invalid opcode)', docsPath: API },
  DUALNET_ERR_UNKNOWN_BLOCK: { className: 'UnknownBlockError', summary: 'a block the chain does not have', docsPath: API },
  DUALNET_ERR_EXECUTION_TIMEOUT: { className: 'ExecutionTimeoutError', summary: 'a call, estimate or trace ran past its time limit', docsPath: 'docs/limits.md' },
  DUALNET_ERR_EXECUTION_ABORTED: { className: 'ExecutionAbortedError', summary: 'an execution stopped because its devnet is closing (or its signal aborted otherwise)', docsPath: 'docs/limits.md' },
  DUALNET_ERR_TRACE_TOO_LARGE: { className: 'TraceTooLargeError', summary: 'a trace grew past the trace size limit', docsPath: TRACES },
  DUALNET_ERR_TRACE_UNAVAILABLE: { className: 'TraceUnavailableError', summary: 'a transaction that cannot be traced: unknown, native, or not replayable', docsPath: TRACES },
  DUALNET_ERR_PERSISTENCE: { className: 'PersistenceError', summary: 'a database or state document the devnet refuses', docsPath: PERSISTENCE },
  DUALNET_ERR_CHAIN_MISMATCH: { className: 'ChainMismatchError', summary: 'a database holding a chain made with other chain-shaping options', docsPath: PERSISTENCE },
  DUALNET_ERR_UNSUPPORTED_VERSION: { className: 'UnsupportedVersionError', summary: 'a database or document written in a schema version this devnet does not read', docsPath: PERSISTENCE },
  DUALNET_ERR_CORRUPT_DATABASE: {
    className: 'CorruptDatabaseError',
    summary: 'a database that cannot be opened, is not a dualnet database, or holds an entry that does not decode',
    docsPath: PERSISTENCE,
  },
  DUALNET_ERR_INVALID_ADDRESS: { className: 'InvalidAddressError', summary: 'an address that is not valid Base58 or hex', docsPath: API },
  DUALNET_ERR_INVALID_TRANSACTION: { className: 'InvalidTransactionError', summary: 'raw bytes the node refuses to deserialise', docsPath: NATIVE },
  DUALNET_ERR_DECODE: { className: 'DecodeError', summary: 'bytes that do not decode (with the offset where reading failed)', docsPath: NATIVE },
  DUALNET_ERR_EIP155_DECODE: { className: 'Eip155DecodeError', summary: "an EIP-155 transaction's RLP that the node's decoder refuses", docsPath: NATIVE },
  DUALNET_ERR_SIGNATURE_VERIFICATION: { className: 'SignatureVerificationError', summary: "a native transaction's signatures that do not verify", docsPath: NATIVE },
  DUALNET_ERR_INVALID_PUBLIC_KEY: { className: 'InvalidPublicKeyError', summary: 'bytes that are not a public key the devnet verifies', docsPath: NATIVE },
  DUALNET_ERR_INVALID_PROGRAM: { className: 'InvalidProgramError', summary: 'a verification or invocation script the node cannot read', docsPath: NATIVE },
  DUALNET_ERR_SCRIPT: { className: 'ScriptError', summary: 'a script that is not the push sequence expected (with the offset where reading failed)', docsPath: NATIVE },
  DUALNET_ERR_UNSUPPORTED_SCRIPT: { className: 'UnsupportedScriptError', summary: 'an invocation script beyond the native main- and gas-token calls', docsPath: NATIVE },
  DUALNET_ERR_INVALID_TOKEN_CALL: { className: 'InvalidTokenCallError', summary: "a main- or gas-token method called with arguments the node's native contract cannot decode", docsPath: NATIVE },
  DUALNET_ERR_NATIVE_EXECUTION: { className: 'NativeExecutionError', summary: 'a token call that failed; the transaction fails with State 0', docsPath: NATIVE },
  DUALNET_ERR_FORK_REMOTE: { className: 'ForkRemoteError', summary: "a fork's remote call that failed (network, HTTP status, an error answer)", docsPath: FORK },
  DUALNET_ERR_FORK_REMOTE_ANSWER: { className: 'RemoteErrorAnswer', summary: "a fork's remote answered a history call with a JSON-RPC error; the fork answers it as given", docsPath: FORK },
  DUALNET_ERR_FORK_REMOTE_REST_ANSWER: { className: 'RemoteRestErrorAnswer', summary: "a fork's remote answered a REST history path with an error; the fork answers it as given", docsPath: FORK },
  DUALNET_ERR_FORK_MISS: { className: 'ForkMiss', summary: 'a fork value not fetched yet (internal: the surfaces fetch it and run again)', docsPath: 'docs/fork.md#what-is-forked-and-how' },
  DUALNET_ERR_NOT_FORKED: { className: 'NotForkedError', summary: 'native state of a fork without the REST URL of its remote', docsPath: 'docs/fork.md#native-state-resturl' },
  DUALNET_ERR_GAS_SNAPSHOT_MISMATCH: { className: 'GasSnapshotMismatchError', summary: 'gas measurements that differ from the snapshot file in check mode', docsPath: 'docs/gas-snapshots.md' },
  DUALNET_ERR_COVERAGE: { className: 'CoverageError', summary: 'coverage or a gas report asked of a devnet without its option, or artifacts it cannot read', docsPath: 'docs/coverage.md' },
  DUALNET_ERR_EXPLORER_REQUEST: { className: 'ExplorerRequestError', summary: "a request the explorer page's API refuses: a malformed parameter (HTTP 400)", docsPath: 'docs/explorer.md' },
} as const satisfies Record<string, DualnetErrorCodeInfo>

/** A stable error code of dualnet, e.g. `'DUALNET_ERR_UNKNOWN_BLOCK'` (see {@link DUALNET_ERROR_CODES}). */
export type DualnetErrorCode = keyof typeof DUALNET_ERROR_CODES

/** Every registered code, in the registry's order. */
export const dualnetErrorCodes = Object.keys(DUALNET_ERROR_CODES) as DualnetErrorCode[]
