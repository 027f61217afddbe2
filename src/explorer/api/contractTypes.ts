/**
 * The explorer API's answers about contracts (the `--artifacts` option, docs/explorer.md),
 * as the wire carries them: the routes `contract` and `signature` build them, the page
 * decodes calls, logs and revert data with them. This module imports nothing, so the
 * page's browser build can take its types.
 */

/** One parameter of an ABI item, as the compiler writes it (Solidity ABI JSON). */
export interface AbiParam {
  /** The ABI type: `uint256`, `address[]`, `tuple`, `tuple[2]`, … */
  readonly type: string
  /** The parameter's name; `''` or absent when unnamed. */
  readonly name?: string
  /** Of an event's parameter: whether it is a topic. */
  readonly indexed?: boolean
  /** Of a tuple: its fields. */
  readonly components?: readonly AbiParam[]
}

/**
 * A function, event or error of an ABI with what identifies it on the chain:
 * `signature` its canonical form (`transfer(address,uint256)`), `selector` the first
 * 4 bytes of its keccak-256 (functions, errors: the call data's and revert data's
 * first bytes) or all 32 (events: a log's topic 0), 0x and lower-case hex.
 */
export interface ExplorerAbiItem {
  readonly type: 'function' | 'event' | 'error'
  readonly name: string
  readonly inputs: readonly AbiParam[]
  /** Of a function: what it returns. */
  readonly outputs?: readonly AbiParam[]
  /** Of an event: declared `anonymous` (no topic 0, so never found by selector). */
  readonly anonymous?: boolean
  readonly signature: string
  readonly selector: string
}

/**
 * `GET /explorer/api/contract/<address>`: the contract of the artifacts whose runtime
 * bytecode the account's code is (immutables, library addresses and the metadata
 * trailer masked), or `null` (no code, no artifacts, or none of them).
 */
export interface ExplorerContract {
  /** `<source path>:<contract name>`, as Hardhat and Foundry name a contract (`contracts/Token.sol:Token`). */
  readonly name: string
  /** Its functions, events and errors. */
  readonly abi: readonly ExplorerAbiItem[]
}

/**
 * One answer of `GET /explorer/api/signature/<selector>` (4 bytes, or 32 of an event
 * topic): an ABI item of some contract of the artifacts with that selector, and the
 * first contract (`source:Name`) that declares it. Items of the same signature and
 * indexed parameters are listed once (ERC-20's and ERC-721's `Transfer` are two);
 * different signatures may share a 4-byte selector.
 */
export interface SignatureMatch {
  readonly contract: string
  readonly item: ExplorerAbiItem
}
