/** The search bar's routes, and a 32-byte hash resolved to a transaction or a block. */
import { type ComponentChild, h } from 'preact'
import { type Endpoints, rpc } from '../chain.ts'
import { fromBase58 } from '../format.ts'
import { HASH, type Json, Loaded } from '../ui.ts'
import { Block } from './block.ts'
import { Transaction } from './transaction.ts'

/** The route a search text leads to, or an error text. */
export function searchRoute(text: string): string | { error: string } {
  const q = text.trim()
  if (/^\d+$/.test(q)) return `block/${q}`
  if (HASH.test(q)) return `find/${q}`
  if (/^0x[0-9a-fA-F]{40}$/.test(q) || fromBase58(q) !== undefined) return `address/${q}`
  return { error: 'search takes a block height, a block or transaction hash, or an address (0x or Base58)' }
}

/** A 32-byte hash: a transaction if the chain knows one, else a block. */
export function Find({ hash, endpoints }: { hash: string; endpoints: Endpoints }): ComponentChild {
  return h(Loaded<boolean>, {
    key: hash,
    load: async () => (await rpc<Json | null>('eth_getTransactionByHash', [hash])) !== null,
    show: (isTx) => (isTx ? h(Transaction, { hash, endpoints }) : h(Block, { id: hash, endpoints })),
  })
}
