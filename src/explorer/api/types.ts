/**
 * The explorer API's answers as the wire carries them (JSON): the routes build them,
 * the page (src/explorer/page/) reads them. This module imports nothing, so the page's
 * browser build can take its types. Amounts are decimal strings; addresses come in
 * both forms.
 */

/** An address in both forms: `hex` 40 hex digits without 0x (the ledger's key), `base58` (reference §3). */
export interface BothForms {
  readonly hex: string
  readonly base58: string
}

/** One amount, as a native token call states it and in the token's base units. */
export interface DescribedAmount {
  /** In the method's units (a decimal string). */
  readonly amount: string
  /** Decimal places of the method's units: main 0 (v1) or 9 (v2), gas 9 (v1) or 18 (v2). */
  readonly decimals: number
  /** The same in base units (main 1e-9, gas 1e-18), a decimal string. */
  readonly baseUnits: string
  /** Decimal places of base units: main 9, gas 18. */
  readonly baseDecimals: number
}

/** What a token call moves or permits: `from` → `to` of `amount`. */
export interface DescribedMove extends DescribedAmount {
  readonly from: BothForms
  readonly to: BothForms
}

/**
 * A decoded native token call. `action` says what it does: `transfer` (each of
 * `moves`), `approve` (`moves[0]`: owner → spender), `transferFrom` (`sender` spends
 * owner → recipient), `withdrawUnboundGas` (a gas transferFrom whose owner is the
 * main-token contract: the sender claims unbound gas, reference §4.2), or `query`
 * (balanceOf, allowance, name, …: moves nothing).
 */
export interface DescribedCall {
  readonly token: 'main' | 'gas'
  /** The native method name, e.g. `transferV2`. */
  readonly method: string
  readonly action: 'transfer' | 'approve' | 'transferFrom' | 'withdrawUnboundGas' | 'query'
  readonly moves: readonly DescribedMove[]
  /** The spender of a transferFrom (and of a withdrawal). */
  readonly sender?: BothForms
}

/** `GET /explorer/api/transaction/<hash>`: a transaction as the page finds it. */
export interface ExplorerTransaction {
  /** `evm`: an EIP-155 transaction; `native`: a token call; `genesis`: a system transaction of block 0. */
  readonly kind: 'evm' | 'native' | 'genesis'
  /** JSON-RPC's form: 0x and the raw hash (the Ethereum hash of an EVM transaction). */
  readonly hash: string
  /** REST's form: the raw hash byte-reversed, without 0x. */
  readonly restHash: string
  readonly height: number
  /** Its index in the native block (EVM and native transactions together). */
  readonly index: number
  /** Payer (native) or sender (EVM). */
  readonly from: BothForms
  /** The state of its execution record: 1 success, 0 failure. */
  readonly state: 0 | 1
  /**
   * A native or genesis transaction: its signers (CheckWitness), its decoded token call
   * (native) or what it runs (genesis: `deploy <name>`, `<method> on <contract>`), and
   * its fee (GasConsumed, gas in 1e-9).
   */
  readonly native?: { readonly signers: readonly BothForms[]; readonly call?: DescribedCall; readonly script?: string; readonly gasConsumed: string }
}

/** One transaction of an address's list: its description, and for an EVM one its recipient, created contract, value (wei) and selector. */
export type ListedTransaction = ExplorerTransaction & {
  readonly evm?: { readonly to: BothForms | null; readonly created: BothForms | null; readonly value: string; readonly selector: string | null }
}

/** `GET /explorer/api/transactions/<address>`: a page of the transactions touching an address, newest first. */
export interface TransactionPage {
  readonly transactions: readonly ListedTransaction[]
  /** How many transactions touch the address in all. */
  readonly total: number
  /** The `before` of the next (older) page, or null on the last. */
  readonly next: string | null
  /** A fork: the remote's blocks below the fork are not in the list. */
  readonly forked: boolean
}

/** One allowance: `owner` lets `spender` move `amount` base units of `token`. */
export interface ListedAllowance {
  readonly token: 'main' | 'gas'
  readonly owner: BothForms
  readonly spender: BothForms
  /** Base units (main 1e-9, gas 1e-18), a decimal string. */
  readonly amount: string
}

/** `GET /explorer/api/account/<address>`: the allowances an account gave and was given, and its storage's size. */
export interface ExplorerAccount {
  readonly address: BothForms
  /** Allowances this account gave (it is the owner). */
  readonly given: readonly ListedAllowance[]
  /** Allowances given to this account (it is the spender), unbound gas among them. */
  readonly received: readonly ListedAllowance[]
  /** Storage slots that hold a value. */
  readonly storageSlots: number
  /** A fork: only what was written here is listed. */
  readonly forked: boolean
}

/** `GET /explorer/api/storage/<address>`: a page of a contract's storage, in slot order. */
export interface StoragePage {
  /** 32-byte words in 0x hex, as eth_getStorageAt takes and answers them. */
  readonly slots: readonly { readonly slot: string; readonly value: string }[]
  /** Slots holding a value in all. */
  readonly total: number
  /** The `after` of the next page, or null on the last. */
  readonly next: string | null
  /** A fork: only the slots written here are listed. */
  readonly forked: boolean
}
