/**
 * The REST routes the devnet serves, as a type in the shape of viem's RPC schemas (a
 * tuple of `{ Method, Path, Result }`): from it `devnet.rest.get` and `devnet.rest.post`
 * take their path and result types. Every route of the route table (rest/routes/) is
 * listed; each route module is typed by its entry (`RestRoute<Path>`), so that a
 * handler answering another shape does not compile, and test/types.test-d.ts checks
 * that the two lists are the same.
 *
 * Results are what a client reads from the envelope's `Result` when `Error` is 0:
 * the node's u64 fields as JSON numbers (beyond 2^53 they lose precision, as they do
 * for any JSON client), hashes in REST form (byte-reversed hex without 0x), addresses
 * Base58 where the node writes Base58.
 */
import type { MerkleProof } from './merkleProof.ts'

/**
 * The REST envelope (spec: REST response envelope), keys in the node's order. `Result`
 * has the route's type when `Error` is 0; on a failure (`Error` one of
 * {@link RestErrorCode}'s codes) the node puts `""` or an error text there.
 */
export interface RestEnvelope<T = unknown> {
  Action: string
  Desc: string
  Error: number
  Result: T
  Version: '1.0.0'
}

/** A signature of a transaction: public keys (hex), the number of signatures needed, the signatures (hex). */
export interface RestSig {
  PubKeys: string[]
  M: number
  SigData: string[]
}

/** A contract's deploy code as the node stores it (get_contract_state; the Payload of a Deploy transaction). */
export interface RestDeployCode {
  /** The contract code, hex without 0x. */
  Code: string
  /** The VM flags byte (1: NeoVM, 3: Wasm). */
  VmType: number
  Name: string
  CodeVersion: string
  Author: string
  Email: string
  Description: string
}

/** Transaction JSON (get_tx; the entries of a block's Transactions). */
export interface RestTransaction {
  Version: number
  Nonce: number
  /** Native transactions: in the gas token's v1 units; EIP-155 ones: in gwei. */
  GasPrice: number
  GasLimit: number
  /** The payer, Base58. */
  Payer: string
  /** 208 Deploy, 209 InvokeNeo, 210 InvokeWasm, 211 EIP-155. */
  TxType: number
  /** A Deploy's code and metadata, an invoke's `{ Code }` (hex), or for EIP-155 the hex of the Ethereum RLP. */
  Payload: RestDeployCode | { Code: string } | string
  Attributes: unknown[]
  Sigs: RestSig[]
  /** REST-form hash: byte-reversed hex, no 0x. */
  Hash: string
  /** Height of the block that holds it. */
  Height: number
}

/** Block header JSON. Hashes in REST form (byte-reversed hex, no 0x). */
export interface RestBlockHeader {
  Version: number
  PrevBlockHash: string
  TransactionsRoot: string
  BlockRoot: string
  /** Unix seconds. */
  Timestamp: number
  Height: number
  ConsensusData: number
  ConsensusPayload: string
  /** Base58. */
  NextBookkeeper: string
  /** Public keys, hex. */
  Bookkeepers: string[]
  /** Signatures, hex. */
  SigData: string[]
  Hash: string
}

/** Block JSON (get_blk_by_height, get_blk_by_hash). */
export interface RestBlock {
  Hash: string
  /** Serialised size in bytes. */
  Size: number
  Header: RestBlockHeader
  Transactions: RestTransaction[]
}

/** A block's hash, height and transaction hashes (get_blk_txs_by_height). */
export interface RestBlockTransactions {
  Hash: string
  Height: number
  Transactions: string[]
}

/** Balances as decimal strings: get_balance in v1 units (whole main, gas in 1e-9), get_balancev2 in v2 units (main in 1e-9, gas in wei). */
export interface RestBalance {
  main: string
  gas: string
  /** The current height, as a decimal string. */
  height: string
}

/**
 * A notification of an event record: a native token event (`States` its entries:
 * event name, then parameters) or an EVM log (`States` the node's serialisation of
 * the log, 0x-hex; `IsEvm` true).
 */
export interface RestNotify {
  /** The contract, REST-form (byte-reversed hex). */
  ContractAddress: string
  States: (string | number)[] | string
  IsEvm: boolean
}

/** The execution event record of one transaction (get_smtcode_evts, get_sc_event_by_height). */
export interface RestEventRecord {
  TxHash: string
  /** 1 success, 0 failure. */
  State: number
  GasConsumed: number
  /** null where there is none, as the node writes it. */
  Notify: RestNotify[] | null
  GasStepUsed: number
  TxIndex: number
  /** The contract a deployment created (REST form), or 40 zeros. */
  CreatedContract: string
}

/** get_gasprice: the minimum gas price and the current height. */
export interface RestGasPrice {
  gasprice: number
  height: number
}

/** get_mempooltxstate: the verification states of a pooled transaction and its raw hex. */
export interface RestMempoolTxState {
  State: { Height: number; Type: number; ErrCode: number }[]
  Raw: string
}

/** get_syncstatus: a solo node's constants and the current height. */
export interface RestSyncStatus {
  CurrentBlockHeight: number
  ConnectCount: number
  MaxPeerBlockHeight: number
}

/**
 * post_raw_tx with `?preExec=1`: the outcome of running the transaction without
 * committing it. `Result`: a native transaction's NeoVM result as hex; an EIP-155
 * one's return data as base64, null when empty.
 */
export interface RestPreExecResult {
  /** 1 success, 0 failure. */
  State: number
  Gas: number
  Result: string | null
  Notify: RestNotify[] | null
}

/**
 * Every REST route of the devnet. `Path` is the route's template (`:name` matches one
 * path segment); `Result` what it answers; `Flag`, where present, a query flag
 * (`?raw=1`, `?preExec=1`) and the Result it answers instead.
 */
export type DualnetRestSchema = [
  { Method: 'GET'; Path: '/api/v1/node/connectioncount'; Result: number },
  { Method: 'GET'; Path: '/api/v1/block/transactions/height/:height'; Result: RestBlockTransactions },
  /** `?raw=1`: the block's serialisation, hex. */
  { Method: 'GET'; Path: '/api/v1/block/details/height/:height'; Result: RestBlock; Flag: { raw: string } },
  { Method: 'GET'; Path: '/api/v1/block/details/hash/:hash'; Result: RestBlock; Flag: { raw: string } },
  { Method: 'GET'; Path: '/api/v1/block/height'; Result: number },
  { Method: 'GET'; Path: '/api/v1/block/hash/:height'; Result: string },
  /** `?raw=1`: the transaction's serialisation, hex. */
  { Method: 'GET'; Path: '/api/v1/transaction/:hash'; Result: RestTransaction; Flag: { raw: string } },
  /** The slot's value, hex; `""` for an empty slot. */
  { Method: 'GET'; Path: '/api/v1/storage/:hash/:key'; Result: string },
  { Method: 'GET'; Path: '/api/v1/balance/:addr'; Result: RestBalance },
  { Method: 'GET'; Path: '/api/v1/balancev2/:addr'; Result: RestBalance },
  /** `?raw=1`: the deploy code's serialisation, hex. */
  { Method: 'GET'; Path: '/api/v1/contract/:hash'; Result: RestDeployCode; Flag: { raw: string } },
  /** `""` for a block without transactions, as the node answers. */
  { Method: 'GET'; Path: '/api/v1/smartcode/event/transactions/:height'; Result: RestEventRecord[] | '' },
  /** `""` for a transaction the chain does not have. */
  { Method: 'GET'; Path: '/api/v1/smartcode/event/txhash/:hash'; Result: RestEventRecord | '' },
  { Method: 'GET'; Path: '/api/v1/block/height/txhash/:hash'; Result: number },
  { Method: 'GET'; Path: '/api/v1/merkleproof/:hash'; Result: MerkleProof },
  { Method: 'GET'; Path: '/api/v1/gasprice'; Result: RestGasPrice },
  /** Decimal string in v1 units. */
  { Method: 'GET'; Path: '/api/v1/allowance/:asset/:from/:to'; Result: string },
  /** Decimal string in v2 units. */
  { Method: 'GET'; Path: '/api/v1/allowancev2/:asset/:from/:to'; Result: string },
  /** The same with `?asset=…&from=…&to=…`. */
  { Method: 'GET'; Path: '/api/v1/allowancev2'; Result: string },
  /** Decimal string, gas token in v1 units. */
  { Method: 'GET'; Path: '/api/v1/unboundgas/:addr'; Result: string },
  { Method: 'GET'; Path: '/api/v1/unboundong/:addr'; Result: string },
  /** Pooled transactions, and 0. */
  { Method: 'GET'; Path: '/api/v1/mempool/txcount'; Result: [number, number] },
  { Method: 'GET'; Path: '/api/v1/mempool/txstate/:hash'; Result: RestMempoolTxState },
  { Method: 'GET'; Path: '/api/v1/version'; Result: string },
  { Method: 'GET'; Path: '/api/v1/networkid'; Result: number },
  /** Decimal string, gas token in v1 units. */
  { Method: 'GET'; Path: '/api/v1/grantgas/:addr'; Result: string },
  { Method: 'GET'; Path: '/api/v1/grantong/:addr'; Result: string },
  { Method: 'GET'; Path: '/api/v1/api/v1/node/syncstatus'; Result: RestSyncStatus },
  { Method: 'GET'; Path: '/api/v1/node/syncstatus'; Result: RestSyncStatus },
  /** The GET route templates. */
  { Method: 'GET'; Path: '/api/v1'; Result: string[] },
  /** The transaction's REST-form hash; `?preExec=1`: the pre-execution's outcome. */
  { Method: 'POST'; Path: '/api/v1/transaction'; Result: string; Flag: { preExec: RestPreExecResult } },
]

/** An entry of {@link DualnetRestSchema}. */
type RestEntry = DualnetRestSchema[number]

/** A REST method the devnet serves. */
export type RestMethod = RestEntry['Method']

/** The route templates of method `M` (`/api/v1/balancev2/:addr`, …). */
export type RestRouteTemplate<M extends RestMethod = RestMethod> = Extract<RestEntry, { Method: M }>['Path']

/** The segments of a path: `/a/b` is `['', 'a', 'b']`. */
type Segments<S extends string> = S extends `${infer Head}/${infer Tail}` ? [Head, ...Segments<Tail>] : [S]

/** A template's segments as a path type: `:name` becomes `${string}`. */
type JoinSegments<S extends string[]> = S extends [infer Head extends string, ...infer Tail extends string[]]
  ? Tail extends []
    ? Head extends `:${string}`
      ? string
      : Head
    : `${Head extends `:${string}` ? string : Head}/${JoinSegments<Tail>}`
  : ''

/** The paths a template matches, as a template literal type: `/api/v1/balancev2/:addr` is `` `/api/v1/balancev2/${string}` ``. */
export type RestPathOf<T extends string> = JoinSegments<Segments<T>>

/** A path of method `M` that a route serves, with or without a query string. */
export type RestPath<M extends RestMethod = RestMethod> = RestPathOf<RestRouteTemplate<M>> | `${RestPathOf<RestRouteTemplate<M>>}?${string}`

/** Whether path segments `P` match template segments `T` (`:name` matches one non-empty segment). */
type SegmentsMatch<P extends string[], T extends string[]> = P extends [infer PH extends string, ...infer PT extends string[]]
  ? T extends [infer TH extends string, ...infer TT extends string[]]
    ? TH extends `:${string}`
      ? PH extends ''
        ? false
        : SegmentsMatch<PT, TT>
      : PH extends TH
        ? SegmentsMatch<PT, TT>
        : false
    : false
  : T extends []
    ? true
    : false

/** `P` without its query string. */
type PathPart<P extends string> = P extends `${infer Path}?${string}` ? Path : P

/** The schema entries of method `M` whose template path `P` matches. */
type MatchingEntry<M extends RestMethod, P extends string, E extends RestEntry = RestEntry> = E extends { Method: M }
  ? SegmentsMatch<Segments<PathPart<P>>, Segments<E['Path']>> extends true
    ? E
    : never
  : never

/** The Result under a query flag set to 1 in `P` (`?raw=1`), else the route's Result. */
type FlaggedResult<E extends RestEntry, P extends string> = E extends { Flag: infer F }
  ? {
      [K in keyof F & string]: P extends `${string}?${string}${K}=1${string}` ? F[K] : never
    }[keyof F & string] extends infer R
    ? [R] extends [never]
      ? E['Result']
      : R
    : never
  : E['Result']

/**
 * The Result type of `M` on path `P`: the matching route's Result (or its flagged
 * Result under `?raw=1` / `?preExec=1`); `unknown` for a path typed only as `string`.
 */
export type RestResult<M extends RestMethod, P extends string> = [MatchingEntry<M, P>] extends [never] ? unknown : FlaggedResult<MatchingEntry<M, P>, P>

/**
 * What `devnet.rest.get` / `post` take as a path of type `P`: a literal or template
 * path must match a route of method `M` (a misspelt path does not compile); a path
 * typed only as `string` is taken, and its Result is `unknown`.
 */
export type RestPathArgument<M extends RestMethod, P extends string> = P extends RestPath<M> ? P : string extends P ? P : RestPath<M>
