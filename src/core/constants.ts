/**
 * Constants of the real chain that the ledger depends on. Source: reference §0, §2.4,
 * §4.1, §6 (docs/development.md, "Facts about the real node").
 */

/** 20 raw bytes: 19 zero bytes then `id` (native contract addresses, reference §0). */
export function nativeAddress(id: number): Uint8Array {
  const a = new Uint8Array(20)
  a[19] = id
  return a
}

/** The zero address: genesis payer, EVM COINBASE. */
export const ZERO_ADDRESS = nativeAddress(0)
/** Main-token native contract (0x…01). */
export const MAIN_TOKEN_ADDRESS = nativeAddress(1)
/** Gas-token native contract (0x…02); emitter of the synthetic Transfer logs (reference §6.4). */
export const GAS_TOKEN_ADDRESS = nativeAddress(2)
/** Governance contract (0x…07): receives every fee (reference §2.8, §6.5). */
export const GOVERNANCE_ADDRESS = nativeAddress(7)

/** Solo-node EIP-155 chain id (reference §0). */
export const SOLO_CHAIN_ID = 12345
/** Solo-node network id reported over REST (reference §0, §8). */
export const SOLO_NETWORK_ID = 3
/** Per-transaction EVM gas cap, also the eth_call / eth_estimateGas cap (`ETHTxGasLimit`, reference §0). */
export const EVM_TX_GAS_CAP = 6_000_000n
/** Minimum transaction gas limit accepted by the pool (`MinGasLimit`, reference §0). */
export const MIN_GAS_LIMIT = 20_000n
/** 1 gwei in wei: EVM gas prices must be whole multiples of it (reference §2.4). */
export const GWEI = 1_000_000_000n
/** A nonce this far above the account nonce is refused (ErrETHTxNonceToobig, reference §6.5). */
export const MAX_NONCE_GAP = 1000n
/** Gas limit the EVM sees through the GASLIMIT opcode (reference §6.3). */
export const EVM_BLOCK_GAS_LIMIT = 2n ** 64n - 1n

/** Total supplies in v2 units (reference §4.1): main 1e9 tokens at 9 decimals, gas 1e9 tokens at 18. */
export const MAIN_TOTAL_SUPPLY = 10n ** 18n
export const GAS_TOTAL_SUPPLY = 10n ** 27n
/** v2 units per v1 unit, the same for both tokens (main 1e-9 per whole token, gas 1e-18 per 1e-9; §4.1). */
export const V2_PER_V1 = 10n ** 9n
/** One whole token in v2 units. */
export const MAIN_UNIT = 10n ** 9n
export const GAS_UNIT = 10n ** 18n
/** Each dev account's balances unless given (createDevnet, the CLI's default `--balance`): 10,000 tokens of each kind. */
export const DEV_ACCOUNT_MAIN = 10_000n * MAIN_UNIT
export const DEV_ACCOUNT_GAS = 10_000n * GAS_UNIT

/** keccak256 of empty code: the code hash of an account without code (go-ethereum types.EmptyCodeHash), 0x-hex. */
export const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'
/** Root of an empty Merkle-Patricia trie: the storage root of an account without storage (go-ethereum types.EmptyRootHash), 0x-hex. */
export const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
/** keccak256(rlp([])): the sha3Uncles of a block without uncles, 0x-hex. */
export const EMPTY_UNCLES_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347'
