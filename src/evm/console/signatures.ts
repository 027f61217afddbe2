/**
 * The console.log selector table: every overload of hardhat/console.sol (Hardhat
 * 3.x's generated table, 375 selectors) and, as Hardhat 2 and Foundry also accept,
 * the legacy selectors of early console.sol versions, which hashed `uint`/`int`
 * instead of `uint256`/`int256` (same argument encoding). forge-std's console and
 * console2 use the same signatures.
 *
 * The overloads: `log()`; `log(T)` for T in int256, uint256, string, bool, address,
 * bytes, bytes1…bytes32 (the `logInt`, `logUint`, `logBytesN`… helpers encode these
 * same signatures); and `log(A, B[, C[, D]])` for every A…D in uint256, string,
 * bool, address.
 */
import { keccak256 } from '../../util/hash.ts'

/** The ABI types console arguments take. */
export type ConsoleArgType = 'int256' | 'uint256' | 'string' | 'bool' | 'address' | 'bytes' | `bytes${number}`

/** Canonical signatures of hardhat/console.sol, e.g. `log(string,uint256)`. */
export function consoleSignatures(): ConsoleArgType[][] {
  const single: ConsoleArgType[] = ['int256', 'uint256', 'string', 'bool', 'address', 'bytes']
  for (let n = 1; n <= 32; n++) single.push(`bytes${n}`)
  const combined: ConsoleArgType[] = ['uint256', 'string', 'bool', 'address']
  const all: ConsoleArgType[][] = [[], ...single.map((t) => [t])]
  let previous: ConsoleArgType[][] = combined.map((t) => [t])
  for (let arity = 2; arity <= 4; arity++) {
    const next: ConsoleArgType[][] = []
    for (const head of previous) for (const t of combined) next.push([...head, t])
    all.push(...next)
    previous = next
  }
  return all
}

/** The 4-byte selector of `log(types…)` as a big-endian number. */
function selector(signature: string): number {
  const hash = keccak256(new TextEncoder().encode(signature))
  return ((hash[0]! << 24) | (hash[1]! << 16) | (hash[2]! << 8) | hash[3]!) >>> 0
}

let table: Map<number, readonly ConsoleArgType[]> | undefined

/** Selector -> argument types, canonical and legacy; built on first use (a few hundred keccaks). */
export function consoleSelectorTable(): ReadonlyMap<number, readonly ConsoleArgType[]> {
  if (table !== undefined) return table
  table = new Map()
  for (const types of consoleSignatures()) {
    const canonical = `log(${types.join(',')})`
    table.set(selector(canonical), types)
    const legacy = `log(${types.map((t) => (t === 'uint256' ? 'uint' : t === 'int256' ? 'int' : t)).join(',')})`
    if (legacy !== canonical) table.set(selector(legacy), types)
  }
  return table
}
