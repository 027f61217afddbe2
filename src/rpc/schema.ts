/**
 * The JSON-RPC methods the devnet serves, as a type in viem's RPC-schema shape (a
 * tuple of `{ Method, Parameters, ReturnType }`, viem's `src/types/eip1193.ts`): from
 * it `devnet.rpc` and `devnet.request` take their parameter and result types, and a
 * viem client takes it as `rpcSchema<DualnetRpcSchema>()`. Every name of the method
 * table (rpc/methods/index.ts) is listed, aliases included; test/types.test-d.ts
 * checks that the two lists are the same.
 *
 * Parameters are what the devnet accepts (optional trailing ones marked `?`), results
 * what it answers (see core/rpcObjects.ts for the objects).
 */
import type {
  Address,
  BlockOverrides,
  BlockSpecifier,
  Hash,
  Hex,
  Numberish,
  Quantity,
  RpcAnvilNodeInfo,
  RpcBlock,
  RpcHeader,
  OtsBlockDetails,
  OtsBlockTransactions,
  OtsContractCreator,
  OtsInternalOperation,
  OtsTraceEntry,
  OtsSearchResult,
  RpcAccount,
  RpcAccountInfo,
  RpcCallManyBundle,
  RpcCallManyResult,
  RpcSimulateOptions,
  RpcSimulatedBlock,
  RpcStateContext,
  RpcExecutionWitness,
  RpcCallBundle,
  RpcCallBundleResponse,
  RpcConfig,
  RpcBlockOpcodeGas,
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
  ParityTrace,
  ParityTraceResults,
  RpcTraceFilter,
  RpcTraceResult,
  RpcTransaction,
  RpcTransactionRequest,
  RpcTxpool,
  StateOverride,
  DualnetCoverage,
  GasReport,
} from '../core/rpcObjects.ts'

/** A block by QUANTITY number or tag (`latest`, `earliest`, `pending`, `safe`, `finalized`). */
export type BlockNumberOrTag = string
/**
 * What debug_trace* answer: the struct logger's result, or the result of the tracer
 * named (core/rpcObjects.ts `RpcTracers`, which the tracer registry serves): the
 * callTracer's top frame. One union for every call, as viem's schema shape gives a
 * method one result type; `RpcTraceResult<'callTracer'>` names one tracer's.
 */
export type Trace = RpcTraceResult
/** What debug_traceBlockByNumber / debug_traceBlockByHash answer: per EVM transaction in block order, its hash and its {@link Trace}, or the error that kept it from being traced (go-ethereum eth/tracers/api.go `txTraceResult`). */
export type BlockTrace = ({ txHash: `0x${string}`; result: Trace } | { txHash: `0x${string}`; error: string })[]
/** The hardhat_reset / anvil_reset options argument: absent, null, `{}`, or Hardhat's `forking` (docs/fork.md). */
export type ResetOptions = { forking?: { jsonRpcUrl: string; blockNumber?: Numberish } } | null

/**
 * Every JSON-RPC method of the devnet, viem's RPC-schema shape. `Parameters` is the
 * params array; `ReturnType` the result.
 */
export type DualnetRpcSchema = [
  // The spec's table.
  { Method: 'net_version'; Parameters?: undefined; ReturnType: string },
  { Method: 'eth_networkId'; Parameters?: undefined; ReturnType: string },
  { Method: 'eth_config'; Parameters?: undefined; ReturnType: RpcConfig },
  { Method: 'eth_chainId'; Parameters?: undefined; ReturnType: Quantity },
  { Method: 'eth_blockNumber'; Parameters?: undefined; ReturnType: Quantity },
  { Method: 'eth_getBalance'; Parameters: [address: string, block: BlockSpecifier]; ReturnType: Quantity },
  { Method: 'eth_protocolVersion'; Parameters?: undefined; ReturnType: Hex },
  { Method: 'eth_syncing'; Parameters?: undefined; ReturnType: RpcSyncing },
  { Method: 'eth_gasPrice'; Parameters?: undefined; ReturnType: Quantity },
  { Method: 'eth_getStorageAt'; Parameters: [address: string, slot: string, block: BlockSpecifier]; ReturnType: Hex },
  { Method: 'eth_getTransactionCount'; Parameters: [address: string, block: BlockSpecifier]; ReturnType: Quantity },
  { Method: 'eth_getBlockTransactionCountByHash'; Parameters: [hash: string]; ReturnType: Quantity | null },
  { Method: 'eth_getBlockTransactionCountByNumber'; Parameters: [block: BlockNumberOrTag]; ReturnType: Quantity | null },
  { Method: 'eth_getCode'; Parameters: [address: string, block: BlockSpecifier]; ReturnType: Hex },
  { Method: 'eth_getTransactionLogs'; Parameters: [hash: string]; ReturnType: RpcLog[] | null },
  { Method: 'eth_sendRawTransaction'; Parameters: [raw: string]; ReturnType: Hash },
  { Method: 'eth_callBundle'; Parameters: [bundle: RpcCallBundle]; ReturnType: RpcCallBundleResponse },
  { Method: 'eth_simulateV1'; Parameters: [opts: RpcSimulateOptions, block?: BlockSpecifier | null]; ReturnType: RpcSimulatedBlock[] },
  {
    Method: 'eth_callMany'
    Parameters: [bundles: RpcCallManyBundle[], stateContext?: RpcStateContext | null, stateOverride?: StateOverride | null, timeoutMilliSeconds?: number]
    ReturnType: RpcCallManyResult[][]
  },
  { Method: 'eth_sendRawTransactionConditional'; Parameters: [raw: string, conditional: RpcTransactionConditional]; ReturnType: Hash },
  { Method: 'eth_call'; Parameters: [call: RpcTransactionRequest, block: BlockSpecifier, stateOverrides?: StateOverride | null, blockOverrides?: BlockOverrides | null]; ReturnType: Hex },
  {
    Method: 'eth_estimateGas'
    Parameters: [call: RpcTransactionRequest, block?: BlockSpecifier | null, stateOverrides?: StateOverride | null, blockOverrides?: BlockOverrides | null]
    ReturnType: Quantity
  },
  { Method: 'debug_traceTransaction'; Parameters: [hash: string, options?: RpcTraceOptions]; ReturnType: Trace },
  { Method: 'debug_traceBlockByNumber'; Parameters: [block: BlockNumberOrTag, options?: RpcTraceOptions]; ReturnType: BlockTrace },
  { Method: 'debug_traceBlockByHash'; Parameters: [hash: string, options?: RpcTraceOptions]; ReturnType: BlockTrace },
  { Method: 'debug_traceBlock'; Parameters: [rlp: string, options?: RpcTraceOptions]; ReturnType: BlockTrace },
  { Method: 'trace_transaction'; Parameters: [hash: string]; ReturnType: ParityTrace[] | null },
  { Method: 'trace_transactionOpcodeGas'; Parameters: [hash: string]; ReturnType: RpcTransactionOpcodeGas | null },
  { Method: 'trace_blockOpcodeGas'; Parameters: [block: BlockSpecifier]; ReturnType: RpcBlockOpcodeGas | null },
  { Method: 'debug_accountInfoAt'; Parameters: [block: BlockSpecifier, txIndex: Numberish, address: string]; ReturnType: RpcAccountInfo },
  { Method: 'debug_getModifiedAccountsByNumber'; Parameters: [startNum: Numberish, endNum?: Numberish | null]; ReturnType: Address[] },
  { Method: 'debug_codeByHash'; Parameters: [hash: string, block?: BlockSpecifier | null]; ReturnType: Hex | null },
  { Method: 'debug_dbGet'; Parameters: [key: string]; ReturnType: Hex | null },
  { Method: 'debug_freeOSMemory'; Parameters?: undefined; ReturnType: null },
  { Method: 'trace_get'; Parameters: [hash: string, indices: (Quantity | number)[]]; ReturnType: ParityTrace | null },
  { Method: 'trace_block'; Parameters: [block: BlockSpecifier]; ReturnType: ParityTrace[] | null },
  { Method: 'trace_replayTransaction'; Parameters: [hash: string, traceTypes: ('trace' | 'stateDiff' | 'vmTrace')[]]; ReturnType: ParityTraceResults },
  { Method: 'trace_filter'; Parameters: [filter: RpcTraceFilter]; ReturnType: ParityTrace[] },
  { Method: 'trace_rawTransaction'; Parameters: [raw: Hex, traceTypes: ('trace' | 'stateDiff' | 'vmTrace')[]]; ReturnType: ParityTraceResults },
  { Method: 'trace_callMany'; Parameters: [calls: [RpcTransactionRequest, ('trace' | 'stateDiff' | 'vmTrace')[]][], block?: BlockSpecifier | null]; ReturnType: ParityTraceResults[] },
  { Method: 'trace_call'; Parameters: [call: RpcTransactionRequest, traceTypes: ('trace' | 'stateDiff' | 'vmTrace')[], block?: BlockSpecifier | null]; ReturnType: ParityTraceResults },
  { Method: 'trace_replayBlockTransactions'; Parameters: [block: BlockSpecifier, traceTypes: ('trace' | 'stateDiff' | 'vmTrace')[]]; ReturnType: ParityTraceResults[] | null },
  { Method: 'debug_traceCall'; Parameters: [call: RpcTransactionRequest, block?: BlockSpecifier | null, options?: RpcTraceCallOptions | null]; ReturnType: Trace },
  { Method: 'eth_getBlockByNumber'; Parameters: [block: BlockNumberOrTag, fullTransactions: boolean]; ReturnType: RpcBlock | null },
  { Method: 'eth_getBlockByHash'; Parameters: [hash: string, fullTransactions: boolean]; ReturnType: RpcBlock | null },
  { Method: 'eth_getTransactionByHash'; Parameters: [hash: string]; ReturnType: RpcTransaction | null },
  { Method: 'eth_getTransactionByBlockHashAndIndex'; Parameters: [hash: string, index: string]; ReturnType: RpcTransaction | null },
  { Method: 'eth_getTransactionByBlockNumberAndIndex'; Parameters: [block: BlockNumberOrTag, index: string]; ReturnType: RpcTransaction | null },
  { Method: 'eth_getTransactionReceipt'; Parameters: [hash: string]; ReturnType: RpcReceipt | null },
  { Method: 'eth_pendingTransactions'; Parameters?: undefined; ReturnType: RpcTransaction[] | null },
  { Method: 'eth_pendingTransactionsByHash'; Parameters: [hash: string]; ReturnType: RpcTransaction | null },
  // Beyond the spec: what wallets and contract test suites call.
  { Method: 'eth_accounts'; Parameters?: undefined; ReturnType: Address[] },
  { Method: 'eth_requestAccounts'; Parameters?: undefined; ReturnType: Address[] },
  { Method: 'eth_sendTransaction'; Parameters: [request: RpcTransactionRequest]; ReturnType: Hash },
  { Method: 'eth_resend'; Parameters: [request: RpcTransactionRequest, gasPrice?: Quantity | null, gasLimit?: Quantity | null]; ReturnType: Hash },
  { Method: 'eth_sendUnsignedTransaction'; Parameters: [request: RpcTransactionRequest]; ReturnType: Hash },
  { Method: 'eth_fillTransaction'; Parameters: [request: RpcTransactionRequest]; ReturnType: RpcFilledTransaction },
  { Method: 'eth_getLogs'; Parameters: [filter: RpcLogFilter]; ReturnType: RpcLog[] },
  { Method: 'eth_newFilter'; Parameters: [filter: RpcLogFilter]; ReturnType: Quantity },
  { Method: 'eth_newBlockFilter'; Parameters?: undefined; ReturnType: Quantity },
  { Method: 'eth_newPendingTransactionFilter'; Parameters?: undefined; ReturnType: Quantity },
  /** Block and pending-transaction filters report hashes; log filters report logs. */
  { Method: 'eth_getFilterChanges'; Parameters: [id: string]; ReturnType: Hash[] | RpcLog[] },
  { Method: 'eth_getFilterLogs'; Parameters: [id: string]; ReturnType: RpcLog[] },
  { Method: 'eth_uninstallFilter'; Parameters: [id: string]; ReturnType: boolean },
  { Method: 'eth_coinbase'; Parameters?: undefined; ReturnType: Address },
  { Method: 'eth_mining'; Parameters?: undefined; ReturnType: false },
  { Method: 'eth_hashrate'; Parameters?: undefined; ReturnType: Quantity },
  { Method: 'eth_getUncleCountByBlockHash'; Parameters: [hash: string]; ReturnType: Quantity | null },
  { Method: 'eth_getUncleCountByBlockNumber'; Parameters: [block: BlockNumberOrTag]; ReturnType: Quantity | null },
  { Method: 'net_listening'; Parameters?: undefined; ReturnType: true },
  { Method: 'eth_getUncleByBlockHashAndIndex'; Parameters: [hash: string, index: Quantity]; ReturnType: null },
  { Method: 'eth_getUncleByBlockNumberAndIndex'; Parameters: [block: BlockNumberOrTag, index: Quantity]; ReturnType: null },
  { Method: 'eth_getRawTransactionByHash'; Parameters: [hash: string]; ReturnType: Hex | null },
  { Method: 'debug_getRawTransaction'; Parameters: [hash: string]; ReturnType: Hex | null },
  { Method: 'eth_getRawTransactionByBlockHashAndIndex'; Parameters: [hash: string, index: Quantity]; ReturnType: Hex },
  { Method: 'eth_getRawTransactionByBlockNumberAndIndex'; Parameters: [block: BlockNumberOrTag, index: Quantity]; ReturnType: Hex },
  /** A QUANTITY|TAG, a bare block hash, or an EIP-1898 object (go-ethereum's BlockNumberOrHash). */
  { Method: 'eth_getBlockReceipts'; Parameters: [block: BlockSpecifier]; ReturnType: RpcReceipt[] | null },
  { Method: 'debug_getRawReceipts'; Parameters: [block: BlockSpecifier]; ReturnType: Hex[] | null },
  { Method: 'debug_getRawHeader'; Parameters: [block: BlockSpecifier]; ReturnType: Hex | null },
  { Method: 'debug_getRawBlock'; Parameters: [block: BlockSpecifier]; ReturnType: Hex | null },
  { Method: 'debug_executionWitness'; Parameters: [block: BlockNumberOrTag]; ReturnType: RpcExecutionWitness },
  { Method: 'debug_getRawTransactions'; Parameters: [block: BlockSpecifier]; ReturnType: Hex[] },
  { Method: 'eth_getHeaderByNumber'; Parameters: [block: BlockNumberOrTag]; ReturnType: RpcHeader | null },
  { Method: 'eth_getHeaderByHash'; Parameters: [hash: string]; ReturnType: RpcHeader | null },
  // Otterscan's API (otterscan docs/custom-jsonrpc.md) and the Erigon header it probes.
  { Method: 'ots_getApiLevel'; Parameters?: undefined; ReturnType: number },
  { Method: 'erigon_getHeaderByNumber'; Parameters: [block: BlockNumberOrTag | number]; ReturnType: RpcHeader | null },
  { Method: 'ots_hasCode'; Parameters: [address: string, block: BlockSpecifier | number]; ReturnType: boolean },
  { Method: 'ots_getBlockDetails'; Parameters: [block: BlockNumberOrTag | number]; ReturnType: OtsBlockDetails | null },
  { Method: 'ots_getBlockDetailsByHash'; Parameters: [hash: string]; ReturnType: OtsBlockDetails | null },
  { Method: 'ots_getTransactionError'; Parameters: [hash: string]; ReturnType: Hex },
  { Method: 'ots_getBlockTransactions'; Parameters: [block: BlockNumberOrTag | number, page: Numberish, pageSize: Numberish]; ReturnType: OtsBlockTransactions | null },
  { Method: 'ots_searchTransactionsBefore'; Parameters: [address: string, blockNumber: Numberish, pageSize: Numberish]; ReturnType: OtsSearchResult },
  { Method: 'ots_searchTransactionsAfter'; Parameters: [address: string, blockNumber: Numberish, pageSize: Numberish]; ReturnType: OtsSearchResult },
  { Method: 'ots_getContractCreator'; Parameters: [address: string]; ReturnType: OtsContractCreator | null },
  { Method: 'ots_getInternalOperations'; Parameters: [hash: string]; ReturnType: OtsInternalOperation[] },
  { Method: 'ots_traceTransaction'; Parameters: [hash: string]; ReturnType: OtsTraceEntry[] },
  { Method: 'ots_getTransactionBySenderAndNonce'; Parameters: [sender: string, nonce: Quantity | number]; ReturnType: Hash | null },
  { Method: 'eth_getTransactionBySenderAndNonce'; Parameters: [sender: string, nonce: Quantity]; ReturnType: RpcTransaction | null },
  { Method: 'eth_getAccount'; Parameters: [address: string, block: BlockSpecifier]; ReturnType: RpcAccount },
  { Method: 'eth_getAccountInfo'; Parameters: [address: string, block?: BlockSpecifier]; ReturnType: RpcAccountInfo },
  { Method: 'eth_getStorageValues'; Parameters: [requests: Record<string, string[]>, block?: BlockSpecifier]; ReturnType: Record<Address, Hash[]> },
  { Method: 'eth_baseFee'; Parameters?: undefined; ReturnType: Quantity | null },
  { Method: 'eth_createAccessList'; Parameters: [call: RpcTransactionRequest, block?: BlockSpecifier | null, stateOverrides?: StateOverride | null]; ReturnType: RpcAccessListResult },
  { Method: 'eth_getProof'; Parameters: [address: string, storageKeys: string[], block: BlockSpecifier]; ReturnType: RpcAccountProof },
  { Method: 'eth_sendRawTransactionSync'; Parameters: [raw: Hex | string, timeout?: Numberish | null]; ReturnType: RpcReceipt },
  { Method: 'eth_sendTransactionSync'; Parameters: [request: RpcTransactionRequest, timeout?: Numberish | null]; ReturnType: RpcReceipt },
  { Method: 'web3_clientVersion'; Parameters?: undefined; ReturnType: string },
  { Method: 'web3_sha3'; Parameters: [data: string]; ReturnType: Hash },
  { Method: 'eth_feeHistory'; Parameters: [blockCount: Numberish, newestBlock: BlockNumberOrTag, rewardPercentiles?: number[]]; ReturnType: RpcFeeHistory },
  { Method: 'eth_maxPriorityFeePerGas'; Parameters?: undefined; ReturnType: Quantity },
  // Push subscriptions and the pool.
  {
    Method: 'eth_subscribe'
    Parameters: ['newHeads'] | ['newPendingTransactions'] | ['logs', Pick<RpcLogFilter, 'address' | 'topics'>?]
    ReturnType: string
  },
  { Method: 'eth_unsubscribe'; Parameters: [id: string]; ReturnType: true },
  { Method: 'txpool_status'; Parameters?: undefined; ReturnType: { pending: Quantity; queued: Quantity } },
  { Method: 'txpool_content'; Parameters?: undefined; ReturnType: RpcTxpool<RpcTransaction> },
  { Method: 'txpool_contentFrom'; Parameters: [address: string]; ReturnType: { pending: Record<string, RpcTransaction>; queued: Record<string, RpcTransaction> } },
  { Method: 'txpool_inspect'; Parameters?: undefined; ReturnType: RpcTxpool<string> },
  // Signing with the dev keys.
  { Method: 'eth_sign'; Parameters: [address: string, data: string]; ReturnType: Hex },
  { Method: 'personal_sign'; Parameters: [data: string, address: string]; ReturnType: Hex },
  { Method: 'eth_signTypedData_v4'; Parameters: [address: string, typedData: string | object]; ReturnType: Hex },
  { Method: 'eth_signTypedData_v3'; Parameters: [address: string, typedData: string | object]; ReturnType: Hex },
  { Method: 'eth_signTypedData'; Parameters: [address: string, typedData: string | object]; ReturnType: Hex },
  { Method: 'eth_signTransaction'; Parameters: [request: RpcTransactionRequest]; ReturnType: Hex },
  // Test-harness controls (Hardhat, Anvil and Ganache names).
  { Method: 'evm_snapshot'; Parameters?: undefined; ReturnType: Quantity },
  { Method: 'dualnet_gasSnapshot'; Parameters: [name: string, transactionHash: Hash]; ReturnType: Quantity },
  { Method: 'dualnet_coverage'; Parameters?: [reset?: boolean | null]; ReturnType: DualnetCoverage },
  { Method: 'dualnet_gasReport'; Parameters?: undefined; ReturnType: GasReport },
  { Method: 'evm_revert'; Parameters: [id: string]; ReturnType: boolean },
  { Method: 'evm_mine'; Parameters?: [] | [timestamp: Numberish | { timestamp?: Numberish; blocks?: Numberish } | null]; ReturnType: '0x0' },
  { Method: 'evm_increaseTime'; Parameters: [seconds: Numberish]; ReturnType: number },
  { Method: 'evm_setNextBlockTimestamp'; Parameters: [timestamp: Numberish]; ReturnType: null },
  { Method: 'evm_setAutomine'; Parameters: [on: boolean]; ReturnType: true },
  { Method: 'evm_setIntervalMining'; Parameters: [ms: Numberish]; ReturnType: true },
  { Method: 'hardhat_getAutomine'; Parameters?: undefined; ReturnType: boolean },
  { Method: 'anvil_getAutomine'; Parameters?: undefined; ReturnType: boolean },
  { Method: 'hardhat_mine'; Parameters?: [blocks?: Numberish | null, interval?: Numberish | null]; ReturnType: true },
  { Method: 'anvil_mine'; Parameters?: [blocks?: Numberish | null, interval?: Numberish | null]; ReturnType: null },
  { Method: 'hardhat_setBalance'; Parameters: [address: string, wei: string]; ReturnType: true },
  { Method: 'anvil_setBalance'; Parameters: [address: string, wei: string]; ReturnType: null },
  { Method: 'tenderly_setBalance'; Parameters: [address: string, wei: string]; ReturnType: true },
  { Method: 'hardhat_setCode'; Parameters: [address: string, code: string]; ReturnType: true },
  { Method: 'anvil_setCode'; Parameters: [address: string, code: string]; ReturnType: null },
  { Method: 'hardhat_setStorageAt'; Parameters: [address: string, slot: string, value: string]; ReturnType: true },
  { Method: 'anvil_setStorageAt'; Parameters: [address: string, slot: string, value: string]; ReturnType: true },
  { Method: 'hardhat_setNonce'; Parameters: [address: string, nonce: string]; ReturnType: true },
  { Method: 'anvil_setNonce'; Parameters: [address: string, nonce: string]; ReturnType: null },
  { Method: 'evm_setBlockGasLimit'; Parameters: [gasLimit: string]; ReturnType: true },
  { Method: 'anvil_setBlockGasLimit'; Parameters: [gasLimit: string]; ReturnType: true },
  { Method: 'hardhat_setCoinbase'; Parameters: [address: string]; ReturnType: true },
  { Method: 'anvil_setCoinbase'; Parameters: [address: string]; ReturnType: null },
  { Method: 'hardhat_setNextBlockBaseFeePerGas'; Parameters: [baseFee: string]; ReturnType: true },
  { Method: 'anvil_setNextBlockBaseFeePerGas'; Parameters: [baseFee: string]; ReturnType: null },
  { Method: 'hardhat_setPrevRandao'; Parameters: [prevRandao: string]; ReturnType: true },
  { Method: 'hardhat_impersonateAccount'; Parameters: [address: string]; ReturnType: true },
  { Method: 'anvil_impersonateAccount'; Parameters: [address: string]; ReturnType: null },
  { Method: 'hardhat_stopImpersonatingAccount'; Parameters: [address: string]; ReturnType: true },
  { Method: 'anvil_stopImpersonatingAccount'; Parameters: [address: string]; ReturnType: null },
  { Method: 'hardhat_dropTransaction'; Parameters: [hash: string]; ReturnType: boolean },
  { Method: 'anvil_dropTransaction'; Parameters: [hash: string]; ReturnType: Hash | null },
  { Method: 'anvil_dropAllTransactions'; Parameters?: undefined; ReturnType: null },
  { Method: 'anvil_removePoolTransactions'; Parameters: [address: string]; ReturnType: null },
  { Method: 'hardhat_reset'; Parameters?: [] | [options: ResetOptions]; ReturnType: true },
  { Method: 'anvil_reset'; Parameters?: [] | [options: ResetOptions]; ReturnType: null },
  { Method: 'anvil_setBlockTimestampInterval'; Parameters: [seconds: Numberish]; ReturnType: null },
  { Method: 'anvil_removeBlockTimestampInterval'; Parameters?: undefined; ReturnType: true },
  /** The head state as 0x-hex of gzipped JSON (the devnet's state document); Anvil's boolean is accepted and ignored. */
  { Method: 'anvil_dumpState'; Parameters?: [] | [historical: boolean]; ReturnType: Hex },
  { Method: 'hardhat_dumpState'; Parameters?: [] | [historical: boolean]; ReturnType: Hex },
  /** What anvil_dumpState returns, the hex of plain JSON, or the document as an object. */
  { Method: 'anvil_loadState'; Parameters: [state: string | object]; ReturnType: true },
  { Method: 'hardhat_loadState'; Parameters: [state: string | object]; ReturnType: true },
  /** The main-token balance in v2 units (1e-9 main) as a QUANTITY. */
  { Method: 'dev_setMainBalance'; Parameters: [address: string, amount: string]; ReturnType: true },
  // Controls under every name the clients use (issue 34 item 4).
  { Method: 'anvil_snapshot'; Parameters?: undefined; ReturnType: Quantity },
  { Method: 'anvil_revert'; Parameters: [id: string]; ReturnType: boolean },
  { Method: 'anvil_increaseTime'; Parameters: [seconds: Numberish]; ReturnType: number },
  { Method: 'anvil_setNextBlockTimestamp'; Parameters: [timestamp: Numberish]; ReturnType: null },
  { Method: 'anvil_setAutomine'; Parameters: [enabled: boolean]; ReturnType: null },
  /** Seconds (Anvil's unit; evm_setIntervalMining takes milliseconds). */
  { Method: 'anvil_setIntervalMining'; Parameters: [seconds: Numberish]; ReturnType: null },
  /** Seconds, or null when blocks are not mined on a timer. */
  { Method: 'anvil_getIntervalMining'; Parameters?: undefined; ReturnType: number | null },
  /** The clock's new offset from the wall clock, seconds. */
  { Method: 'anvil_setTime'; Parameters: [timestamp: Numberish]; ReturnType: number },
  { Method: 'evm_setTime'; Parameters: [timestamp: Numberish]; ReturnType: number },
  { Method: 'anvil_getGenesisTime'; Parameters?: undefined; ReturnType: number },
  { Method: 'anvil_getLastBlockWallTime'; Parameters?: undefined; ReturnType: number },
  { Method: 'evm_mine_detailed'; Parameters?: [] | [options: Numberish | { timestamp?: Numberish; blocks?: Numberish } | null]; ReturnType: RpcBlock[] },
  { Method: 'anvil_mine_detailed'; Parameters?: [] | [options: Numberish | { timestamp?: Numberish; blocks?: Numberish } | null]; ReturnType: RpcBlock[] },
  { Method: 'anvil_nodeInfo'; Parameters?: undefined; ReturnType: RpcAnvilNodeInfo },
  { Method: 'anvil_metadata'; Parameters?: undefined; ReturnType: RpcNodeMetadata },
  { Method: 'hardhat_metadata'; Parameters?: undefined; ReturnType: RpcNodeMetadata },
  { Method: 'anvil_addBalance'; Parameters: [address: string, wei: string]; ReturnType: null },
  { Method: 'hardhat_addBalance'; Parameters: [address: string, wei: string]; ReturnType: null },
  { Method: 'tenderly_addBalance'; Parameters: [address: string, wei: string]; ReturnType: null },
  { Method: 'anvil_autoImpersonateAccount'; Parameters: [enabled: boolean]; ReturnType: null },
  { Method: 'hardhat_autoImpersonateAccount'; Parameters: [enabled: boolean]; ReturnType: null },
  { Method: 'hardhat_dropAllTransactions'; Parameters?: undefined; ReturnType: null },
  { Method: 'debug_clearTxpool'; Parameters?: undefined; ReturnType: null },
  /** Refused: a sender is the key its signature recovers. */
  { Method: 'anvil_impersonateSignature'; Parameters: [signature: string, address: string]; ReturnType: never },
  /** Refused unless the devnet's own chain id. */
  { Method: 'anvil_setChainId'; Parameters: [chainId: Numberish]; ReturnType: null },
  { Method: 'anvil_setNextBlockPrevRandao'; Parameters: [prevRandao: string]; ReturnType: true },
  /** Refused (no live change of the remote). */
  { Method: 'anvil_setRpcUrl'; Parameters: [url: string]; ReturnType: never },
  /** Refused (undo only back to a snapshot). */
  { Method: 'anvil_rollback'; Parameters?: [] | [depth: Numberish | null]; ReturnType: never },
  { Method: 'anvil_reorg'; Parameters: [options: { depth: number; tx_block_pairs: unknown[] }]; ReturnType: never },
  { Method: 'evm_setAccountBalance'; Parameters: [address: string, wei: string]; ReturnType: true },
  { Method: 'evm_setAccountNonce'; Parameters: [address: string, nonce: string]; ReturnType: true },
  { Method: 'evm_setAccountCode'; Parameters: [address: string, code: string]; ReturnType: true },
  { Method: 'evm_setAccountStorageAt'; Parameters: [address: string, slot: string, value: string]; ReturnType: true },
  { Method: 'miner_start'; Parameters?: [] | [threads: number | string | null]; ReturnType: true },
  { Method: 'miner_stop'; Parameters?: undefined; ReturnType: true },
  /** Wei, a whole number of gwei (the node's floor counts in gwei). */
  { Method: 'anvil_setMinGasPrice'; Parameters: [gasPrice: string]; ReturnType: null },
  { Method: 'hardhat_setMinGasPrice'; Parameters: [gasPrice: string]; ReturnType: true },
  { Method: 'anvil_setLoggingEnabled'; Parameters: [enabled: boolean]; ReturnType: null },
  { Method: 'hardhat_setLoggingEnabled'; Parameters: [enabled: boolean]; ReturnType: true },
  /** `[owner, token, amount]` in the token's base units. */
  { Method: 'anvil_dealERC20'; Parameters: [address: string, token: string, balance: string]; ReturnType: null },
  { Method: 'anvil_setERC20Balance'; Parameters: [address: string, token: string, balance: string]; ReturnType: null },
  { Method: 'hardhat_dealERC20'; Parameters: [address: string, token: string, balance: string]; ReturnType: null },
  { Method: 'anvil_setERC20Allowance'; Parameters: [owner: string, spender: string, token: string, amount: string]; ReturnType: null },
]

/** The name of a JSON-RPC method the devnet serves. */
export type RpcMethodName = DualnetRpcSchema[number]['Method']

/** The schema entry of method `M`: `{ Method, Parameters, ReturnType }`. */
export type EntryOf<M extends RpcMethodName> = Extract<DualnetRpcSchema[number], { Method: M }>

/**
 * The params array of method `M`: `[]` for a method without parameters (whose schema
 * entry says `Parameters?: undefined`, as viem's own schemas do, so that viem's
 * `client.request({ method })` takes no params for it).
 */
export type RpcParameters<M extends RpcMethodName> = [Exclude<EntryOf<M>['Parameters'], undefined>] extends [never] ? [] : Exclude<EntryOf<M>['Parameters'], undefined>

/** The result of method `M`. */
export type RpcResult<M extends RpcMethodName> = EntryOf<M>['ReturnType']

/**
 * `devnet.rpc`'s trailing arguments for `M`: the params array, which may be left out
 * where the method takes none or only optional ones.
 */
export type RpcParamsArgument<M extends RpcMethodName> = undefined extends EntryOf<M>['Parameters']
  ? [params?: RpcParameters<M>]
  : [] extends RpcParameters<M>
    ? [params?: RpcParameters<M>]
    : [params: RpcParameters<M>]

/**
 * A typed EIP-1193 request: `{ method, params }` of one method of the schema, as
 * viem's `EIP1193RequestFn<DualnetRpcSchema>` types it.
 */
export type RpcRequest<M extends RpcMethodName = RpcMethodName> = M extends RpcMethodName
  ? undefined extends EntryOf<M>['Parameters']
    ? { readonly method: M; readonly params?: RpcParameters<M> }
    : [] extends RpcParameters<M>
      ? { readonly method: M; readonly params?: RpcParameters<M> }
      : { readonly method: M; readonly params: RpcParameters<M> }
  : never

/** `devnet.request`: EIP-1193's `request`, typed per method by {@link DualnetRpcSchema}. */
export type DualnetRequestFn = <M extends RpcMethodName>(args: RpcRequest<M>) => Promise<RpcResult<M>>
