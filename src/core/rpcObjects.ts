/**
 * The JSON objects of the devnet's JSON-RPC answers, as TypeScript types: what the
 * formatters (rpc/format.ts), the tracers (evm/tracing/) and the pool views return,
 * and what `devnet.rpc` resolves to (rpc/schema.ts lists them per method). Types only,
 * with no imports, so that the package's public declarations reach nothing internal.
 *
 * Conventions (the Ethereum JSON-RPC specification's): a QUANTITY is 0x-hex without
 * leading zeros (`"0x0"` for zero); DATA is 0x-hex of whole bytes; hashes are 32 bytes,
 * addresses 20 bytes, lower case.
 */

/** 0x-prefixed hex text. */
export type Hex = `0x${string}`
/** QUANTITY: an unsigned integer as 0x-hex without leading zeros, e.g. `"0x3039"`. */
export type Quantity = Hex
/** A 20-byte address as 0x-hex (lower case in answers; any case accepted). */
export type Address = Hex
/** A 32-byte hash as 0x-hex. */
export type Hash = Hex

/** Block tags: `safe` and `finalized` are the latest block (a solo chain is final at once); `pending` is the next block. */
export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'
/**
 * A block parameter: a QUANTITY number, a {@link BlockTag}, or an EIP-1898 object.
 * Parameters take plain strings (ethers' addresses and hex values are `string`);
 * results are typed `0x${string}`.
 */
export type BlockSpecifier = string | { blockNumber: string } | { blockHash: string; requireCanonical?: boolean }
/** A count or time that test helpers send either as a JSON number or as a QUANTITY. */
export type Numberish = number | string

/** A transaction object (eth_getTransactionByHash): block fields null while pending; `type` is always `"0x0"` (legacy). */
export interface RpcTransaction {
  type: '0x0'
  blockHash: Hash | null
  blockNumber: Quantity | null
  from: Address
  gas: Quantity
  gasPrice: Quantity
  hash: Hash
  input: Hex
  nonce: Quantity
  to: Address | null
  transactionIndex: Quantity | null
  value: Quantity
  v: Quantity
  r: Quantity
  s: Quantity
}

/** A log of a mined transaction; `logIndex` counts within the block. */
export interface RpcLog {
  address: Address
  topics: Hash[]
  data: Hex
  blockNumber: Quantity
  transactionHash: Hash
  transactionIndex: Quantity
  blockHash: Hash
  logIndex: Quantity
  removed: false
}

/** A receipt; `status` is `"0x1"` (success) or `"0x0"` (failure); `effectiveGasPrice` is the transaction's gas price in wei. */
export interface RpcReceipt {
  type: '0x0'
  blockHash: Hash
  blockNumber: Quantity
  contractAddress: Address | null
  cumulativeGasUsed: Quantity
  effectiveGasPrice: Quantity
  from: Address
  gasUsed: Quantity
  logs: RpcLog[]
  logsBloom: Hex
  status: Quantity
  to: Address | null
  transactionHash: Hash
  transactionIndex: Quantity
}

/**
 * A block header (eth_getHeaderByNumber / ByHash): the block object's fields less
 * transactions, uncles, size and totalDifficulty, as go-ethereum's RPCMarshalHeader
 * renders a header (internal/ethapi/api.go).
 */
export type RpcHeader = Omit<RpcBlock, 'transactions' | 'uncles' | 'size' | 'totalDifficulty'>

/**
 * Otterscan's block details (ots_getBlockDetails / ByHash; otterscan
 * docs/custom-jsonrpc.md): the block without `transactions`, with `transactionCount` and
 * a null `logsBloom`; the issuance (all zero on this chain) and the block's fees in wei.
 */
export interface OtsBlockDetails {
  block: Omit<RpcBlock, 'transactions' | 'logsBloom'> & { logsBloom: null; transactionCount: number }
  issuance: { blockReward: Quantity; uncleReward: Quantity; issuance: Quantity }
  totalFees: Quantity
}

/**
 * A receipt as ots_getBlockTransactions gives it (otterscan docs/custom-jsonrpc.md;
 * Erigon's GetBlockTransactions): the receipt object with `logs` and `logsBloom` null,
 * and the block's `timestamp` (QUANTITY, Unix seconds).
 */
export type OtsReceipt = Omit<RpcReceipt, 'logs' | 'logsBloom'> & { logs: null; logsBloom: null; timestamp: Quantity }

/**
 * A receipt as Otterscan's address search gives it: the whole receipt object, logs and
 * bloom included, and the block's `timestamp` (Erigon marshals the receipt with its logs;
 * Anvil's OtsReceipt from its receipt envelope keeps them; Otterscan's search page passes
 * the receipt to ethers' formatter, which requires a `logs` array).
 */
export type OtsSearchReceipt = RpcReceipt & { timestamp: Quantity }

/**
 * ots_getBlockTransactions' answer: `fullblock`, the block object with one page of
 * transaction objects (`input` cut to its 4-byte selector), `transactionCount` (the
 * block's, all pages) and a null `logsBloom`; `receipts`, theirs in the same order.
 */
export interface OtsBlockTransactions {
  fullblock: Omit<RpcBlock, 'transactions' | 'logsBloom'> & { transactions: RpcTransaction[]; logsBloom: null; transactionCount: number }
  receipts: OtsReceipt[]
}

/**
 * ots_searchTransactionsBefore / After's answer: transactions newest first, their
 * receipts, and whether this is the newest page (`firstPage`) or the oldest
 * (`lastPage`).
 */
export interface OtsSearchResult {
  txs: RpcTransaction[]
  receipts: OtsSearchReceipt[]
  firstPage: boolean
  lastPage: boolean
}

/** ots_getContractCreator's answer: the creating transaction and the address that ran the creation. */
export interface OtsContractCreator {
  hash: Hash
  creator: Address
}

/**
 * One of ots_getInternalOperations' operations: `type` 0 a value transfer, 1 a
 * self-destruct, 2 a CREATE, 3 a CREATE2; `value` in wei.
 */
export interface OtsInternalOperation {
  type: 0 | 1 | 2 | 3
  from: Address
  to: Address
  value: Quantity
}

/**
 * One call of ots_traceTransaction's list, in execution order: the frame's kind
 * (`CALL`, `STATICCALL`, `DELEGATECALL`, `CALLCODE`, `CREATE`, `CREATE2`), its depth
 * (0 the transaction's own), the addresses, the value (null where the kind moves none),
 * input and output.
 */
export interface OtsTraceEntry {
  type: string
  depth: number
  from: Address
  to: Address
  value: Quantity | null
  input: Hex
  output: Hex
}

/**
 * eth_createAccessList's answer (go-ethereum internal/ethapi/api.go AccessListResult):
 * the addresses and storage slots (32-byte DATA) the call touches, its gas used, and
 * go-ethereum's error text when it failed (absent otherwise).
 */
export interface RpcAccessListResult {
  accessList: { address: Address; storageKeys: Hash[] }[]
  gasUsed: Quantity
  error?: string
}

/**
 * eth_fillTransaction's answer (go-ethereum internal/ethapi/api.go
 * SignTransactionResult, unsigned): the unsigned legacy transaction's RLP and its
 * JSON as go-ethereum marshals a transaction (core/types/transaction_marshalling.go).
 */
export interface RpcFilledTransaction {
  raw: Hex
  tx: { type: '0x0'; nonce: Quantity; gasPrice: Quantity; gas: Quantity; to: Address | null; value: Quantity; input: Hex; v: Quantity; r: Quantity; s: Quantity; hash: Hash }
}

/**
 * An account as eth_getAccount answers it (go-ethereum internal/ethapi/api.go
 * AccountResult): gas-token balance in wei, EVM nonce, keccak256 of the code, and the
 * root of its storage trie; QUANTITY and 32-byte DATA.
 */
export interface RpcAccount {
  balance: Quantity
  nonce: Quantity
  codeHash: Hash
  storageRoot: Hash
}

/** One of eth_simulateV1's `blockStateCalls` as sent: the block's overrides, state overrides and calls. */
export interface RpcBlockStateCall {
  blockOverrides?: BlockOverrides | null
  stateOverrides?: StateOverride | null
  calls?: RpcTransactionRequest[] | null
}

/** eth_simulateV1's first argument as sent. */
export interface RpcSimulateOptions {
  blockStateCalls: RpcBlockStateCall[]
  validation?: boolean
  traceTransfers?: boolean
  returnFullTransactions?: boolean
}

/** One call's result: go-ethereum's `simCallResult`. `error.code` is -32000 for a revert (data: the revert data), -32015 for another EVM error. */
export interface RpcSimulatedCall {
  returnData: Hex
  logs: RpcLog[]
  gasUsed: Quantity
  status: '0x0' | '0x1'
  error?: { code: number; message: string; data?: Hex }
}

/** One simulated block: the block object with its calls' results. */
export type RpcSimulatedBlock = RpcBlock & { baseFeePerGas?: Quantity; calls: RpcSimulatedCall[] }

/** One bundle of eth_callMany as sent: its calls and the block override (Erigon's or alloy's field names). */
export interface RpcCallManyBundle {
  transactions: RpcTransactionRequest[]
  blockOverride?: Record<string, unknown> | null
}

/** eth_callMany's state context as sent: the block whose state the bundles run on, and how many of its transactions come first (-1: all). */
export interface RpcStateContext {
  blockNumber?: BlockSpecifier | null
  transactionIndex?: number | null
}

/** One eth_callMany call's answer (alloy `EthCallResponse`, as Anvil serves it): the return data, or the error. */
export type RpcCallManyResult = { value: Hex } | { error: string }

/**
 * eth_callBundle's bundle (Flashbots; alloy rpc-types-mev `EthCallBundle`): signed
 * transactions (0x-hex RLP), the block they are for (QUANTITY), the state to run them
 * on (a number or tag, default latest), and optional block environment: `timestamp`
 * (seconds), `coinbase`, `gasLimit`, `difficulty`, `baseFee` (wei), `timeout` (ms).
 */
export interface RpcCallBundle {
  txs: string[]
  blockNumber: string
  stateBlockNumber?: string
  timestamp?: string | number
  coinbase?: string
  gasLimit?: string
  difficulty?: string
  baseFee?: string
  timeout?: string | number
}

/**
 * One transaction's result in eth_callBundle's answer (alloy
 * `EthCallBundleTransactionResult`): amounts in wei as decimal strings, gas as a JSON
 * number, and the return data (`value`) or the failure (`error`, `revert` data).
 */
export interface RpcCallBundleResult {
  coinbaseDiff: string
  ethSentToCoinbase: string
  fromAddress: Address
  gasFees: string
  gasPrice: string
  gasUsed: number
  toAddress: Address | null
  txHash: Hash
  value?: Hex
  error?: string
  revert?: Hex
}

/** eth_callBundle's answer (alloy `EthCallBundleResponse`): the bundle's totals (wei as decimal strings, gas as numbers) and each transaction's result. */
export interface RpcCallBundleResponse {
  bundleGasPrice: string
  bundleHash: Hash
  coinbaseDiff: string
  ethSentToCoinbase: string
  gasFees: string
  results: RpcCallBundleResult[]
  stateBlockNumber: number
  totalGasUsed: number
}

/**
 * debug_executionWitness's answer (reth's, alloy `ExecutionWitness`): the RLP of the
 * state and storage tries' nodes, the contracts' code, the trie keys' preimages
 * (addresses and slots) and the ancestors' RLP headers, newest first; all 0x-hex.
 */
export interface RpcExecutionWitness {
  state: Hex[]
  codes: Hex[]
  keys: Hex[]
  headers: Hex[]
}

/**
 * One opcode's gas in a transaction, as reth's trace_transactionOpcodeGas answers it
 * (alloy rpc-types-trace `OpcodeGas`): its name, how many times it ran, and the gas
 * those steps cost (static and dynamic, not what a call hands its callee); JSON numbers.
 */
export interface RpcOpcodeGas {
  opcode: string
  count: number
  gasUsed: number
}

/** trace_transactionOpcodeGas's answer (alloy `TransactionOpcodeGas`): the transaction and its opcodes, in the order first executed. */
export interface RpcTransactionOpcodeGas {
  transactionHash: Hash
  opcodeGas: RpcOpcodeGas[]
}

/** trace_blockOpcodeGas's answer (alloy `BlockOpcodeGas`): the block (number as a JSON number) and each EVM transaction's opcode gas, in block order. */
export interface RpcBlockOpcodeGas {
  blockHash: Hash
  blockNumber: number
  transactions: RpcTransactionOpcodeGas[]
}

/**
 * One fork's configuration in eth_config's answer (EIP-7910): when it activates (Unix
 * seconds), its blob schedule (null without blobs), chain id (QUANTITY), fork id
 * (EIP-6122 FORK_HASH, 4 bytes), precompiles and system contracts by EIP-7910 name.
 */
export interface RpcForkConfig {
  activationTime: number
  blobSchedule: { target: number; max: number; baseFeeUpdateFraction: number } | null
  chainId: Quantity
  forkId: Hex
  precompiles: Record<string, Address>
  systemContracts: Record<string, Address>
}

/** eth_config's answer (EIP-7910): the current fork's configuration, and the next and last scheduled (null: none). */
export interface RpcConfig {
  current: RpcForkConfig
  next: RpcForkConfig | null
  last: RpcForkConfig | null
}

/**
 * eth_sendRawTransactionConditional's conditional (ERC-4337 bundlers', as op-geth and
 * reth take it): bounds on the latest block's number and timestamp (QUANTITY), and per
 * address its storage root or some storage slots and the values they must hold.
 */
export interface RpcTransactionConditional {
  knownAccounts?: Record<string, string | Record<string, string>>
  blockNumberMin?: string
  blockNumberMax?: string
  timestampMin?: string
  timestampMax?: string
}

/**
 * An account as eth_getAccountInfo answers it (Anvil's, alloy's `AccountInfo`): the
 * gas-token balance in wei, the EVM nonce (QUANTITY) and the code (DATA).
 */
export interface RpcAccountInfo {
  balance: Quantity
  nonce: Quantity
  code: Hex
}

/**
 * An EIP-1186 account proof as eth_getProof answers it (go-ethereum
 * internal/ethapi/api.go AccountResult): the account's trie nodes from the state root
 * (`accountProof`, RLP-encoded, root first), its fields, and per storage key the value
 * and the storage trie's nodes. dualnet refuses eth_getProof as the node does, so this
 * is the shape the method is declared with, for clients that type it.
 */
export interface RpcAccountProof {
  address: Address
  accountProof: Hex[]
  balance: Quantity
  codeHash: Hash
  nonce: Quantity
  storageHash: Hash
  storageProof: { key: Hex; value: Quantity; proof: Hex[] }[]
}

/**
 * A block object. `transactions` holds the EVM transactions only: their hashes, or
 * the objects when the second parameter of eth_getBlockBy* is true. The chain has no
 * base fee, so there is no `baseFeePerGas`; `gasLimit` is the 6,000,000 per-transaction cap.
 */
export interface RpcBlock {
  number: Quantity
  hash: Hash
  parentHash: Hash
  nonce: Hex
  mixHash: Hash
  sha3Uncles: Hash
  logsBloom: Hex
  transactionsRoot: Hash
  stateRoot: Hash
  receiptsRoot: Hash
  miner: Address
  difficulty: Quantity
  totalDifficulty: Quantity
  extraData: Hex
  size: Quantity
  gasLimit: Quantity
  gasUsed: Quantity
  timestamp: Quantity
  transactions: Hash[] | RpcTransaction[]
  uncles: Hash[]
}

/**
 * A call or transaction request (eth_call, eth_estimateGas, eth_sendTransaction): legacy
 * fields only; QUANTITY and DATA as 0x-hex strings.
 */
export interface RpcTransactionRequest {
  from?: string
  to?: string | null
  gas?: string
  gasPrice?: string
  value?: string
  /** Call data; `input` is the same field under its newer name (both given: they must be equal). */
  data?: string
  input?: string
  nonce?: string
  /** Only `"0x0"` (legacy) is accepted. */
  type?: string
  /** If given, must equal the devnet's chain id. */
  chainId?: string
}

/** Log filter criteria (eth_getLogs, eth_newFilter; `address` and `topics` also for eth_subscribe('logs')). */
export interface RpcLogFilter {
  /** A QUANTITY or a {@link BlockTag}; default `latest`. */
  fromBlock?: string
  toBlock?: string
  /** One block by hash, instead of fromBlock/toBlock. */
  blockHash?: string
  address?: string | string[]
  /** Per position: a topic, any of several, or null for any. */
  topics?: (string | string[] | null)[]
}

/** eth_syncing's answer: always an object, never false, as the real node answers. */
export interface RpcSyncing {
  startingBlock: Quantity
  currentBlock: Quantity
  highestBlock: Quantity
}

/** eth_feeHistory's answer for a chain without base fees (zeros throughout). */
export interface RpcFeeHistory {
  oldestBlock: Quantity
  baseFeePerGas?: Quantity[]
  gasUsedRatio?: number[]
  reward?: Quantity[][]
}

/** txpool_content's and txpool_inspect's shape: per EIP-55 sender, per decimal nonce. */
export interface RpcTxpool<T> {
  pending: Record<Address, Record<string, T>>
  queued: Record<Address, Record<string, T>>
}

/** An account in go-ethereum's prestateTracer answer (native/prestate.go `account`): balance in wei (0x-hex), nonce a JSON number (omitted when 0), code, slots as 32-byte hex. */
export interface PrestateAccountJson {
  balance?: `0x${string}`
  nonce?: number
  code?: `0x${string}`
  storage?: Record<`0x${string}`, `0x${string}`>
}

/** The prestateTracer's answer: the accounts by address, or with `diffMode` `{ pre, post }`. */
export type PrestateResult = Record<`0x${string}`, PrestateAccountJson> | { pre: Record<`0x${string}`, PrestateAccountJson>; post: Record<`0x${string}`, PrestateAccountJson> }

/**
 * The tracers debug_traceTransaction and debug_traceCall take by name, as their wire
 * types: per name, its `tracerConfig` and its result. The devnet's tracer registry
 * (evm/tracing/registry.ts) serves exactly these, each declaration's result of the
 * type given here (a registry that disagrees does not build), as the method table
 * serves rpc/schema.ts. The struct logger, used when no tracer is named, is not here:
 * its flags are {@link RpcTraceOptions}' own and its result {@link StructLoggerResult}.
 */
export interface RpcTracers {
  /** go-ethereum's callTracer: the tree of call frames. */
  callTracer: { config: { onlyTopCall?: boolean; withLog?: boolean }; result: CallFrameJson }
  /**
   * go-ethereum's flatCallTracer: the call frames as Parity's flat traces (top frame's
   * gas as the transaction's; `convertParityErrors`: OpenEthereum's error names;
   * `includePrecompiles`: keep calls to precompiles).
   */
  flatCallTracer: { config: { convertParityErrors?: boolean; includePrecompiles?: boolean }; result: ParityTrace[] }
  /** go-ethereum's 4byteTracer: `"0x<selector>-<call-data bytes after it>"` to its number of calls. */
  '4byteTracer': { config: Record<string, never>; result: Record<string, number> }
  /** go-ethereum's prestateTracer: the touched accounts before the execution, or with `diffMode` `{ pre, post }` of the changed ones. */
  prestateTracer: { config: { diffMode?: boolean; disableCode?: boolean; disableStorage?: boolean }; result: PrestateResult }
  /** go-ethereum's noopTracer: records nothing, answers `{}`. */
  noopTracer: { config: Record<string, never>; result: Record<string, never> }
  /** go-ethereum's muxTracer: several tracers by name, each with its config; their results by name. */
  muxTracer: {
    config: { [N in Exclude<keyof RpcTracers, 'muxTracer'>]?: RpcTracers[N]['config'] }
    result: { [N in Exclude<keyof RpcTracers, 'muxTracer'>]?: RpcTracers[N]['result'] }
  }
}

/** The name of a tracer the devnet serves (`tracer` of the trace options). */
export type RpcTracerName = keyof RpcTracers

/** What a debug_trace* call answers with the tracer named `N` (absent: the struct logger). */
export type RpcTraceResult<N extends RpcTracerName | undefined = RpcTracerName | undefined> = N extends RpcTracerName ? RpcTracers[N]['result'] : StructLoggerResult

/** The tracer options of debug_traceTransaction / debug_traceCall (go-ethereum's TraceConfig). */
export interface RpcTraceOptions {
  /** A tracer of {@link RpcTracers}, or absent for the struct logger. */
  tracer?: RpcTracerName
  /** The named tracer's config ({@link RpcTracers}); ignored without `tracer`. */
  tracerConfig?: RpcTracers[RpcTracerName]['config']
  disableStack?: boolean
  disableStorage?: boolean
  enableMemory?: boolean
  enableReturnData?: boolean
  /** go-ethereum's duration text, e.g. `"5s"`. */
  timeout?: string
}

/**
 * One account's entry in a {@link StateOverride} (go-ethereum's `override.OverrideAccount`):
 * each field given replaces what the account holds, for the one call. Every other
 * field is refused (-32602), as is `state` with `stateDiff`.
 */
export interface AccountOverride {
  /** The gas-token balance in wei (18 decimals; what BALANCE reads), a QUANTITY up to 2^256-1. */
  balance?: string
  /** The nonce, a QUANTITY up to 2^64-1. */
  nonce?: string
  /** The code, DATA (`"0x"`: none). */
  code?: string
  /** The whole storage: 32-byte slot to 32-byte value (both 0x-hex, 64 digits); every other slot reads zero. */
  state?: Record<string, string>
  /** Some slots: 32-byte slot to 32-byte value; the other slots keep theirs. */
  stateDiff?: Record<string, string>
  /** Serves this account's precompile at that address instead (the account must be a precompile, 0x01 to 0x09 on Istanbul). */
  movePrecompileToAddress?: string
}

/**
 * A state override set (go-ethereum's `override.StateOverride`; viem's `stateOverride`
 * serialised): per 20-byte address, what eth_call, eth_estimateGas or debug_traceCall
 * sees in place of its state. Nothing it sets outlives the call.
 */
export type StateOverride = Record<string, AccountOverride>

/**
 * Block overrides (go-ethereum's `override.BlockOverrides`): the block context fields
 * eth_call, eth_estimateGas or debug_traceCall sees in place of its block's. A field
 * the devnet's hardfork lacks is refused (-32602): on the chain's Istanbul,
 * `prevRandao`, `baseFeePerGas` and `blobBaseFee` (no PREVRANDAO, BASEFEE or
 * BLOBBASEFEE, reference §6.3); `difficulty` from the merge on; `beaconRoot` and
 * `withdrawals` always (as go-ethereum for these methods).
 */
export interface BlockOverrides {
  /** NUMBER, a QUANTITY. */
  number?: string
  /** DIFFICULTY, a QUANTITY (hardforks before the merge). */
  difficulty?: string
  /** TIMESTAMP in Unix seconds, a QUANTITY up to 2^64-1. */
  time?: string
  /** GASLIMIT, a QUANTITY up to 2^64-1 (eth_estimateGas then caps at it where it is below 6,000,000). */
  gasLimit?: string
  /** COINBASE, a 20-byte address. */
  feeRecipient?: string
  /** PREVRANDAO, 32 bytes (hardforks from the merge on). */
  prevRandao?: string
  /** BASEFEE in wei, a QUANTITY (hardforks from London on). */
  baseFeePerGas?: string
  /** BLOBBASEFEE in wei, a QUANTITY (hardforks from Cancun on). */
  blobBaseFee?: string
}

/** debug_traceCall's options (go-ethereum's `TraceCallConfig`): the trace options, and the overrides eth_call takes as its third and fourth arguments. */
export interface RpcTraceCallOptions extends RpcTraceOptions {
  stateOverrides?: StateOverride
  blockOverrides?: BlockOverrides
}

/** One struct log as geth encodes it (`structLogLegacy`). */
export interface StructLogJson {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  error?: string
  stack?: string[]
  returnData?: string
  memory?: string[]
  storage?: Record<string, string>
  refund?: number
}

/** The result of the struct logger (geth `ExecutionResult`). */
export interface StructLoggerResult {
  /** Gas used by the transaction (after refunds). */
  gas: number
  failed: boolean
  /** Return data (revert data on a revert) as hex without 0x; empty on other failures. */
  returnValue: string
  structLogs: StructLogJson[]
}

/** A log in a call frame (geth `callLog`). */
export interface CallLogJson {
  address: string
  topics: string[]
  data: string
  position: string
}

/** A call frame as geth's callTracer encodes it (gen_callframe_json.go). */
export interface CallFrameJson {
  type: string
  from: string
  gas: string
  gasUsed: string
  to?: string
  input: string
  output?: string
  error?: string
  revertReason?: string
  calls?: CallFrameJson[]
  logs?: CallLogJson[]
  value?: string
}

/**
 * anvil_nodeInfo's answer, in Anvil's shape (foundry crates/anvil/core/src/eth/mod.rs
 * and crates/anvil/src/eth/api.rs `anvil_node_info`): the head, the hardfork, the
 * pool's order and the block environment. hardhat-viem takes a devnet that answers it
 * for a development network (mode `anvil`).
 */
export interface RpcAnvilNodeInfo {
  currentBlockNumber: Quantity
  /** Unix seconds. */
  currentBlockTimestamp: number
  currentBlockHash: Hash
  /** The EVM hardfork, capitalised as Anvil prints it ("Istanbul"). */
  hardFork: string
  /** How the pool orders senders: by gas price, as Anvil's default `fees`. */
  transactionOrder: 'fees'
  environment: {
    /** Always "0x0": the chain has no fee market. */
    baseFee: Quantity
    chainId: number
    /** The per-transaction gas cap (6,000,000), the blocks' gasLimit. */
    gasLimit: Quantity
    /** eth_gasPrice's answer, wei. */
    gasPrice: Quantity
  }
  forkConfig: { forkUrl: string | null; forkBlockNumber: number | null; forkRetryBackoff: number | null }
}

/**
 * hardhat_metadata / anvil_metadata's answer: Hardhat's fields (hardhat-network-helpers
 * and hardhat-viem read `forkedNetwork.chainId` to pick a viem chain) with Anvil's
 * additions (foundry crates/anvil/core/src/types.rs `Metadata`). `instanceId` changes
 * on a reset, as Hardhat's does.
 */
export interface RpcNodeMetadata {
  clientVersion: string
  clientSemver: string
  clientCommitSha: string
  chainId: number
  instanceId: Hash
  latestBlockNumber: number
  latestBlockHash: Hash
  /** The remote a fork follows; null on a devnet that is no fork (Anvil's null, where Hardhat leaves the field out). */
  forkedNetwork: { chainId: number; forkBlockNumber: number; forkBlockHash: Hash } | null
  /** Live snapshots: id (the QUANTITY evm_snapshot answered, as Anvil keys them) to `[block number, block hash]`. */
  snapshots: Record<string, [number, Hash]>
}

/** Where a traced transaction sits, as Parity's traces give it (numbers, not hex; OpenEthereum `LocalizedTransactionTrace`). */
export interface IncludedTransactionPosition {
  blockHash: string
  blockNumber: number
  transactionHash: string
  transactionPosition: number
}

/**
 * One of Parity's flat traces (`LocalizedTransactionTrace`, as Erigon's and Anvil's
 * trace_* answer it): a call frame's `action` (a call's `callType`
 * `call`/`delegatecall`/`staticcall`/`callcode`, `to`, `input`; a create's `init`,
 * `creationMethod`; a SELFDESTRUCT's, type `suicide`: the destroyed `address`, its
 * `refundAddress` and the `balance` moved, with no result), its `result` (`gasUsed` and `output`, or a create's `address` and
 * `code`; with `error` for a failed frame, absent unless it reverted), `subtraces` (its number of children)
 * and `traceAddress` (child indices from the top frame). Position fields are null for
 * a call not mined (trace_call).
 */
export interface ParityTrace {
  action:
    | { from: string; callType: string; gas: string; input: string; to: string; value: string }
    | { from: string; gas: string; init: string; value: string; creationMethod?: 'create' | 'create2' }
    | { address: string; refundAddress: string; balance: string }
  blockHash: string | null
  blockNumber: number | null
  error?: string
  /** null for a suicide (OpenEthereum's, Anvil's); absent for a failed frame. */
  result?: { gasUsed: string; output: string } | { address: string; code: string; gasUsed: string } | null
  subtraces: number
  traceAddress: number[]
  transactionHash: string | null
  transactionPosition: number | null
  type: 'call' | 'create' | 'suicide' | 'reward'
}

/** One field of Parity's stateDiff: unchanged, born, died, or changed (OpenEthereum trace/types/state_diff.rs `Diff`). */
export type ParityDiff = '=' | { '+': string } | { '-': string } | { '*': { from: string; to: string } }

/** One account of Parity's stateDiff: its gas-token `balance` (wei), `code`, `nonce`, and changed `storage` slots (32-byte hex keys and values). */
export interface ParityAccountDiff {
  balance: ParityDiff
  code: ParityDiff
  nonce: ParityDiff
  storage: Record<string, ParityDiff>
}

/** Parity's stateDiff: the accounts a transaction changed, by lower-case address. */
export type ParityStateDiff = Record<string, ParityAccountDiff>

/**
 * Parity's `TraceResults` (trace_replayTransaction, trace_call…; OpenEthereum, Erigon,
 * Anvil): the top call's `output`, and the kinds asked for, null when not asked:
 * `trace` (flat traces, position fields null), `stateDiff`, `vmTrace` (not served:
 * asking for it is refused). `transactionHash` in trace_replayBlockTransactions.
 */
export interface ParityTraceResults {
  output: string
  stateDiff: ParityStateDiff | null
  trace: ParityTrace[] | null
  vmTrace: null
  transactionHash?: string
}

/** trace_filter's filter object (OpenEthereum `TraceFilter`, Erigon's with `mode`): block range as tags or quantities, address sets, paging by `after` and `count`. */
export interface RpcTraceFilter {
  fromBlock?: string
  toBlock?: string
  fromAddress?: string[]
  toAddress?: string[]
  mode?: 'union' | 'intersection'
  after?: number | string
  count?: number | string
}

/** A position in a source file, as istanbul counts: line from 1, column from 0 (characters). */
export interface CoveragePosition {
  line: number
  column: number
}

/** A range of a source file, as istanbul's `Range`. */
export interface CoverageRange {
  start: CoveragePosition
  end: CoveragePosition
}

/**
 * One source file's coverage in istanbul's format (istanbul-lib-coverage
 * `FileCoverageData`, what `coverage-final.json` holds per file): the statements,
 * functions and branches by id, and their counts.
 */
export interface CoverageFileData {
  path: string
  statementMap: Record<string, CoverageRange>
  fnMap: Record<string, { name: string; decl: CoverageRange; loc: CoverageRange; line: number }>
  branchMap: Record<string, { loc: CoverageRange; type: string; locations: CoverageRange[]; line: number }>
  s: Record<string, number>
  f: Record<string, number>
  b: Record<string, number[]>
}

/** dualnet_coverage's answer: istanbul's coverage data by file, and the codes that ran but match no contract of the artifacts. */
export interface DualnetCoverage {
  coverage: Record<string, CoverageFileData>
  /** By code hash; `creation`: init code (a constructor's run). */
  unmatched: { codeHash: `0x${string}`; creation: boolean }[]
}

/** min / median / max of a list of gas figures, and how many. */
export interface GasFigures {
  calls: number
  min: string
  /** For an even count, the mean of the two middle figures, rounded down. */
  median: string
  max: string
}

/** One function of a contract. */
export interface GasReportMethod {
  /** Its signature (`transfer(address,uint256)`), or its selector when the artifacts do not name it; `''` for a call without one. */
  method: string
  selector: string
  /** Transactions that entered the contract through it. */
  transactions: GasFigures | null
  /** Internal calls to it. */
  internal: GasFigures | null
}

/** One contract of the report. */
export interface GasReportContract {
  /** `source:Name`, or the code hash of a code no artifact matches. */
  contract: string
  /** Runtime code size in bytes. */
  size: number
  methods: GasReportMethod[]
  /** Top-level deployments' gas used. */
  deployments: GasFigures | null
}

/** The gas report (option `gasReport`, dualnet_gasReport), in contract order (by name). Gas figures as decimal strings (JSON has no bigint). */
export interface GasReport {
  contracts: GasReportContract[]
}

/** One function's gas figures in {@link GasSamples}: every transaction's and internal call's gas, as decimal strings (JSON). */
export interface GasSamplesMethod {
  readonly method: string
  readonly selector: string
  readonly transactions: readonly string[]
  readonly internal: readonly string[]
}

/** One code's gas figures in {@link GasSamples}, named as in {@link GasReportContract}. */
export interface GasSamplesContract {
  readonly contract: string
  /** Runtime code size in bytes. */
  readonly size: number
  readonly methods: readonly GasSamplesMethod[]
  /** Each top-level deployment's gas used. */
  readonly deployments: readonly string[]
}

/** What a {@link GasReport} is made of, kept whole: every figure, not their min / median / max. */
export interface GasSamples {
  readonly contracts: readonly GasSamplesContract[]
}
