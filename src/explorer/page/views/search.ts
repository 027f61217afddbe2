/** The search bar's routes, and a 32-byte hash resolved to a transaction or a block. */
import { type ComponentChild, h } from 'preact'
import { api, type Endpoints, rpc } from '../chain.ts'
import { fromBase58 } from '../format.ts'
import { HASH, type Json, Loaded } from '../ui.ts'
import { Block } from './block.ts'
import { Transaction } from './transaction.ts'

/** The route a search text leads to, or an error text. */
export function searchRoute(text: string): string | { error: string } {
  const q = text.trim()
  if (/^\d+$/.test(q)) return `block/${q}`
  if (HASH.test(q)) return `find/${q}`
  // REST writes hashes without 0x (and byte-reversed): find tries both orders.
  if (/^[0-9a-fA-F]{64}$/.test(q)) return `find/0x${q}`
  if (/^0x[0-9a-fA-F]{40}$/.test(q) || fromBase58(q) !== undefined) return `address/${q}`
  return { error: 'search takes a block height, a block or transaction hash, or an address (0x or Base58)' }
}

/** Reverses the bytes of a 0x hash (REST's order ↔ JSON-RPC's, reference §1.7). */
function reversed(hash: string): string {
  return `0x${(hash.slice(2).match(/../g) ?? []).reverse().join('')}`
}

/**
 * A 32-byte hash, in either byte order: a transaction of either kind the ledger holds
 * (the explorer API), an EVM transaction in the pool, else a block.
 */
export function Find({ hash, endpoints }: { hash: string; endpoints: Endpoints }): ComponentChild {
  return h(Loaded<{ tx: string } | { block: string }>, {
    key: hash,
    load: async () => {
      if ((await api<Json>(`transaction/${hash}`)) !== null) return { tx: hash }
      // Pending: not in a block yet, so only JSON-RPC knows it (a native hash makes it throw: not an EVM transaction).
      if ((await rpc<Json | null>('eth_getTransactionByHash', [hash]).catch(() => null)) !== null) return { tx: hash }
      for (const candidate of [hash, reversed(hash)]) if ((await rpc<Json | null>('eth_getBlockByHash', [candidate, false])) !== null) return { block: candidate }
      throw new Error(`no transaction or block ${hash} (in either byte order)`)
    },
    show: (found) => ('tx' in found ? h(Transaction, { hash: found.tx, endpoints }) : h(Block, { id: found.block, endpoints })),
  })
}
