/**
 * The node's gas price estimate (reference §1.4.9): scan from the tip down to
 * max(0, h-100) for the first block with transactions, and average their GasPrice
 * (native units: 1e-9 gas per gas, gwei for EIP-155 transactions); fall back to the pool minimum.
 */
import type { Chain } from './chain.ts'
import { nativeGasPrice } from './transaction.ts'

/** Gas price in gwei (native units) and the height it was read from (0 if none). */
export function gasPriceGwei(chain: Chain): { gasPrice: bigint; height: number } {
  const tip = chain.height
  for (let h = tip; h >= Math.max(chain.firstHeight, tip - 100); h--) {
    // Blocks mined in bulk and not built yet are empty: skip them without building.
    if (chain.isPendingEmpty(h)) continue
    const block = chain.blockAt(h)!
    if (block.transactions.length === 0) continue
    let sum = 0n
    for (const tx of block.transactions) sum += nativeGasPrice(tx)
    const average = sum / BigInt(block.transactions.length)
    return { gasPrice: average === 0n ? chain.minGasPrice : average, height: h }
  }
  return { gasPrice: chain.minGasPrice, height: 0 }
}
