/**
 * The pending pool as go-ethereum's txpool namespace shows it (geth docs "txpool
 * Namespace"; internal/ethapi TxPoolAPI): per sender, `pending` holds the
 * transactions executable now (a gap-free nonce run from the account nonce),
 * `queued` the rest (waiting behind a nonce gap). Senders are keyed by their
 * EIP-55 address (`common.Address.Hex()`), transactions by their nonce in decimal.
 * Native transactions have no sender nonce and no EVM rendering; the txpool methods
 * show EVM transactions only (the REST mempool routes show native ones).
 */
import type { Chain } from '../chain/chain.ts'
import type { EvmTransaction } from '../chain/transaction.ts'
import type { Address } from '../core/rpcObjects.ts'
import { checksumAddress } from '../util/checksumAddress.ts'
import { toHexRaw } from '../util/hex.ts'

/** Pending EVM transactions split as geth does, by sender (raw hex), each list in nonce order. */
export interface PoolByState {
  pending: Map<string, EvmTransaction[]>
  queued: Map<string, EvmTransaction[]>
}

/** The pool split into pending and queued, per sender; with `sender` (raw hex) only that sender's. */
export function poolByState(chain: Chain, sender?: string): PoolByState {
  const bySender = new Map<string, EvmTransaction[]>()
  for (const tx of chain.mempool.all()) {
    const from = toHexRaw(tx.from)
    if (sender !== undefined && from !== sender) continue
    const list = bySender.get(from)
    if (list === undefined) bySender.set(from, [tx])
    else list.push(tx)
  }
  const out: PoolByState = { pending: new Map(), queued: new Map() }
  for (const [from, txs] of bySender) {
    txs.sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : 1))
    let next = chain.world.getAccount(from, chain.height).nonce
    let cut = 0
    while (cut < txs.length && txs[cut]!.tx.nonce === next) {
      cut++
      next++
    }
    if (cut > 0) out.pending.set(from, txs.slice(0, cut))
    if (cut < txs.length) out.queued.set(from, txs.slice(cut))
  }
  return out
}

/** `render` applied to each transaction of `txs`, keyed by nonce in decimal (geth's `fmt.Sprintf("%d", nonce)`). */
export function byNonce<T>(txs: readonly EvmTransaction[], render: (tx: EvmTransaction) => T): Record<string, T> {
  const out: Record<string, T> = {}
  for (const tx of txs) out[tx.tx.nonce.toString()] = render(tx)
  return out
}

/** Each sender's transactions, keyed by EIP-55 address (util/checksumAddress.ts), rendered with {@link byNonce}. */
export function bySender<T>(senders: Map<string, EvmTransaction[]>, render: (tx: EvmTransaction) => T): Record<Address, Record<string, T>> {
  const out: Record<Address, Record<string, T>> = {}
  for (const [from, txs] of senders) out[checksumAddress(from)] = byNonce(txs, render)
  return out
}
