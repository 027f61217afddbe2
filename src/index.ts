/**
 * dualnet: an in-process devnet of a chain whose node serves a native REST
 * interface and an EVM JSON-RPC interface over one ledger.
 *
 * @module dualnet
 */
export { createDevnet } from './devnet.ts'
export { RestNotFoundError } from './devnet.ts'
export type { Devnet, DevAccount, NativeDevAccount, DevnetUrls, RequestArguments, RestClient } from './devnet.ts'
export type {
  DualnetRestSchema,
  RestBalance,
  RestBlock,
  RestBlockHeader,
  RestBlockTransactions,
  RestDeployCode,
  RestEnvelope,
  RestEventRecord,
  RestGasPrice,
  RestMempoolTxState,
  RestMethod,
  RestNotify,
  RestPath,
  RestPathArgument,
  RestPathOf,
  RestPreExecResult,
  RestResult,
  RestRouteTemplate,
  RestSig,
  RestSyncStatus,
  RestTransaction,
} from './rest/schema.ts'
export { RestErrorCode } from './rest/errors.ts'
export { verifyMerkleProof, type MerkleProof } from './rest/merkleProof.ts'
export type { DevnetOptions, ListenOptions, ExplorerOptions, AccountSpec, Hardfork, CoverageOption, GasReportOption, GasSnapshotOption } from './options/types.ts'
export { InvalidOptionError, type InvalidOptionDetail } from './errors/invalidOption.ts'
export type { ForkOptions } from './fork/connect.ts'
export { ForkOptionError } from './fork/optionError.ts'
export type { RemoteOptions as ForkRemoteOptions } from './fork/remote.ts'
export { HARDFORKS } from './options/hardforks.ts'
export type { LevelDatabase, LevelRange, LevelIterator, LevelBatchOperation } from './persistence/database.ts'
export type { Hex } from './util/hex.ts'
export { RpcError, RpcErrorCode } from './rpc/errors.ts'
// Every error class below extends DualnetError; docs/api.md lists the codes and how each answers on every surface.
export { DualnetError, type DualnetErrorCode, type DualnetErrorOptions } from './errors/base.ts'
export { DUALNET_ERROR_CODES, type DualnetErrorCodeInfo } from './errors/codes.ts'
export { DevnetClosedError } from './devnet/providerErrors.ts'
export { ExecutionFailedError, TransactionRejectedError, UnknownBlockError } from './core/errors.ts'
export { toBase58, fromBase58, InvalidAddressError } from './native/address.ts'
export { DEFAULT_MNEMONIC } from './chain/devAccounts.ts'
export { InvalidControlError, type BalanceChange } from './controls/controls.ts'
export { GasSnapshotMismatchError, type GasSnapshotChange } from './gas/snapshots.ts'
export type { DevnetTime } from './controls/time.ts'
export type { ClockMode } from './chain/clock.ts'
export type { BlockContext } from './chain/chain.ts'
export type { AnswerProfile, EmptyStorageAnswer } from './core/answers.ts'
export type { ClientVersionOption } from './rpc/methods/web3_clientVersion.ts'
export { PersistenceError, ChainMismatchError, UnsupportedVersionError, CorruptDatabaseError } from './persistence/errors.ts'
export { STATE_DOCUMENT_VERSION } from './persistence/schema.ts'
export type { StateDocument, StateAccount } from './persistence/stateDocument.ts'
export { VERSION } from './version.ts'
export { loadFixture, FixtureAnonymousFunctionError, type Fixture } from './devnet/fixtures.ts'
export type {
  DualnetRpcSchema,
  DualnetRequestFn,
  RpcMethodName,
  RpcParameters,
  RpcParamsArgument,
  RpcResult,
  RpcRequest,
  EntryOf,
  BlockNumberOrTag,
  Trace,
  BlockTrace,
  ResetOptions,
} from './rpc/schema.ts'
export type {
  AccountOverride,
  Address,
  BlockOverrides,
  BlockSpecifier,
  BlockTag,
  CallFrameJson,
  PrestateAccountJson,
  PrestateResult,
  ParityTrace,
  IncludedTransactionPosition,
  ParityTraceResults,
  RpcTraceFilter,
  ParityStateDiff,
  ParityAccountDiff,
  ParityDiff,
  CallLogJson,
  Hash,
  Numberish,
  Quantity,
  RpcAnvilNodeInfo,
  RpcBlock,
  RpcHeader,
  OtsBlockDetails,
  OtsBlockTransactions,
  OtsContractCreator,
  OtsInternalOperation,
  OtsReceipt,
  OtsSearchReceipt,
  OtsSearchResult,
  OtsTraceEntry,
  RpcAccount,
  RpcAccountInfo,
  RpcBlockStateCall,
  RpcCallManyBundle,
  RpcCallManyResult,
  RpcSimulateOptions,
  RpcSimulatedBlock,
  RpcSimulatedCall,
  RpcStateContext,
  RpcExecutionWitness,
  RpcCallBundle,
  RpcCallBundleResponse,
  RpcCallBundleResult,
  RpcConfig,
  RpcForkConfig,
  RpcBlockOpcodeGas,
  RpcOpcodeGas,
  RpcTransactionConditional,
  RpcTransactionOpcodeGas,
  RpcAccountProof,
  RpcFilledTransaction,
  RpcAccessListResult,
  RpcFeeHistory,
  RpcNodeMetadata,
  RpcLog,
  RpcLogFilter,
  RpcReceipt,
  RpcSyncing,
  RpcTraceCallOptions,
  RpcTraceOptions,
  RpcTraceResult,
  RpcTracerName,
  RpcTracers,
  RpcTransaction,
  RpcTransactionRequest,
  RpcTxpool,
  StateOverride,
  StructLogJson,
  StructLoggerResult,
  CoverageFileData,
  CoveragePosition,
  CoverageRange,
  DualnetCoverage,
  GasFigures,
  GasReport,
  GasReportContract,
  GasReportMethod,
} from './core/rpcObjects.ts'
