/**
 * The overrides a simulation may run under (eth_call, eth_estimateGas,
 * debug_traceCall), parsed: go-ethereum's state override set
 * (`override.StateOverride`, internal/ethapi/override/override.go) and block overrides
 * (`override.BlockOverrides`). They are applied to a throw-away layer of the state and
 * to the one run's block context (chain/overrides.ts), so nothing they set outlives the
 * call. Types only: the parsing is the JSON-RPC surface's (rpc/overrides.ts).
 *
 * Addresses and storage slots are the world state's keys: lower-case hex without `0x`
 * of 20 and 32 bytes.
 */

/** What one account's override replaces (go-ethereum's `OverrideAccount`); an absent field is left as the account holds it. */
export interface AccountOverride {
  /** The gas-token balance in wei (the EVM's BALANCE; reference §4.1). */
  readonly balance?: bigint | undefined
  /** The nonce (a uint64). */
  readonly nonce?: bigint | undefined
  /** The code (empty: none). */
  readonly code?: Uint8Array | undefined
  /** The whole storage: these slots hold these values, every other slot is empty. Never with {@link stateDiff}. */
  readonly state?: ReadonlyMap<string, Uint8Array> | undefined
  /** These slots hold these values; the other slots keep theirs. Never with {@link state}. */
  readonly stateDiff?: ReadonlyMap<string, Uint8Array> | undefined
  /** Moves the precompile at this account to that address (lower-case hex, no `0x`); the account is then plain. */
  readonly movePrecompileToAddress?: string | undefined
}

/** A state override set: per account (lower-case hex, no `0x`), what the call sees in place of its state. */
export type StateOverrides = ReadonlyMap<string, AccountOverride>

/**
 * Block overrides (go-ethereum's `override.BlockOverrides`): the block context fields
 * the call sees in place of its block's. Only the fields the devnet's hardfork has
 * (the surface refuses the others): DIFFICULTY before the merge, PREVRANDAO from it,
 * BASEFEE from London, BLOBBASEFEE from Cancun.
 */
export interface BlockOverrides {
  /** NUMBER. */
  readonly number?: bigint | undefined
  /** DIFFICULTY. */
  readonly difficulty?: bigint | undefined
  /** TIMESTAMP, Unix seconds. */
  readonly time?: bigint | undefined
  /** GASLIMIT (and eth_estimateGas's cap where it is below 6,000,000). */
  readonly gasLimit?: bigint | undefined
  /** COINBASE, 20 bytes. */
  readonly feeRecipient?: Uint8Array | undefined
  /** PREVRANDAO, 32 bytes. */
  readonly prevRandao?: Uint8Array | undefined
  /** BASEFEE in wei. */
  readonly baseFeePerGas?: bigint | undefined
  /** BLOBBASEFEE in wei. */
  readonly blobBaseFee?: bigint | undefined
}

/** What a simulation runs under; `undefined` (the common case) is none, with no cost. */
export interface SimulationOverrides {
  readonly state?: StateOverrides | undefined
  readonly block?: BlockOverrides | undefined
}
