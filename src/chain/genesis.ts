/**
 * Genesis: block 0 and the initial distribution of both supplies (reference §4.1,
 * §5.5). The solo node credits the whole of both supplies to its bookkeeper; the
 * devnet credits each dev account its allocation and the bookkeeper the rest, so
 * both total supplies are conserved from the first block on.
 */
import { GAS_TOTAL_SUPPLY, MAIN_TOTAL_SUPPLY } from '../core/constants.ts'
import type { Bookkeeper } from './bookkeeper.ts'
import { makeBlock, GENESIS_CONSENSUS_DATA } from './chain.ts'
import type { ChainBlock } from './block.ts'
import { appendLeaf } from './merkle.ts'
import type { WorldState } from '../state/worldState.ts'
import { toHex, toHexRaw } from '../util/hex.ts'

/** Initial balances of one address: `main` in 1e-9 units, `gas` in wei. */
export interface GenesisAllocation {
  address: Uint8Array
  main: bigint
  gas: bigint
}

/**
 * Writes the genesis state into `world` at height 0 and returns block 0. Throws
 * `RangeError` when the allocations exceed a total supply or repeat an address.
 */
export function buildGenesis(
  world: WorldState,
  allocations: readonly GenesisAllocation[],
  bookkeeper: Bookkeeper,
  timestamp: number,
  /** Where the gas not allocated goes: the bookkeeper (solo), or the main-token contract (mainnet, where claims are paid from). */
  gasReserve: Uint8Array = bookkeeper.address,
): ChainBlock {
  let main = 0n
  let gas = 0n
  const seen = new Set<string>()
  for (const a of allocations) {
    const key = toHexRaw(a.address)
    if (seen.has(key) || key === toHexRaw(bookkeeper.address)) {
      throw new RangeError(`genesis allocates ${toHex(a.address)} twice`)
    }
    seen.add(key)
    if (a.main < 0n || a.gas < 0n) throw new RangeError(`negative genesis balance for ${toHex(a.address)}`)
    main += a.main
    gas += a.gas
    world.setAccount(key, { nonce: 0n, gas: a.gas, main: a.main, codeHash: undefined }, 0)
  }
  if (main > MAIN_TOTAL_SUPPLY) throw new RangeError(`genesis allocates ${main} main units, above the supply ${MAIN_TOTAL_SUPPLY}`)
  if (gas > GAS_TOTAL_SUPPLY) throw new RangeError(`genesis allocates ${gas} gas units, above the supply ${GAS_TOTAL_SUPPLY}`)
  const reserve = toHexRaw(gasReserve)
  if (reserve === toHexRaw(bookkeeper.address)) {
    world.setAccount(reserve, { nonce: 0n, gas: GAS_TOTAL_SUPPLY - gas, main: MAIN_TOTAL_SUPPLY - main, codeHash: undefined }, 0)
  } else {
    world.setAccount(toHexRaw(bookkeeper.address), { nonce: 0n, gas: 0n, main: MAIN_TOTAL_SUPPLY - main, codeHash: undefined }, 0)
    world.setAccount(reserve, { nonce: 0n, gas: GAS_TOTAL_SUPPLY - gas, main: 0n, codeHash: undefined }, 0)
  }
  const transactionsRoot = new Uint8Array(32)
  return makeBlock(
    {
      version: 0,
      prevHash: new Uint8Array(32),
      transactionsRoot,
      // The genesis header's BlockRoot is all zero; the tree still holds its TransactionsRoot (§5.3).
      blockRoot: new Uint8Array(32),
      timestamp,
      height: 0,
      consensusData: GENESIS_CONSENSUS_DATA,
      consensusPayload: new Uint8Array(0),
      nextBookkeeper: bookkeeper.address,
      bookkeepers: [],
    },
    [],
    [],
    appendLeaf([], 0, transactionsRoot),
    0n,
    undefined,
  )
}
