/**
 * Push subscriptions (eth_subscribe / eth_unsubscribe) as go-ethereum serves them
 * over WebSocket (geth docs, "Real-time events"): `newHeads`, `logs` and
 * `newPendingTransactions`, each notification an `eth_subscription` message
 * `{ subscription, result }`. The real node offers them on its WebSocket port and
 * refuses them over HTTP (reference §6.1, §6.2).
 *
 * Unlike Hardhat's (which are polling filters underneath and die after 5 minutes
 * without a poll, hardhat#2053), a subscription lives until it is cancelled or its
 * connection closes: nothing expires and no timer runs.
 *
 * The manager watches the chain only while some subscription exists, so a devnet
 * that nobody subscribes to pays nothing on its mining path.
 */
import type { DualnetErrorCode } from '../errors/base.ts'
import { randomBytes } from 'node:crypto'
import type { Chain } from '../chain/chain.ts'
import { toHex, type Hex } from '../util/hex.ts'
import { RpcError, RpcErrorCode } from './errors.ts'
import { formatBlock } from './format.ts'
import { matchingLogs, type LogCriteria } from './logQuery.ts'

/** The subscription kinds served (go-ethereum's names). */
export type SubscriptionKind = 'newHeads' | 'logs' | 'newPendingTransactions'

/** Where a connection's notifications go: `result` for subscription `id`, in order. */
export type NotificationSink = (subscription: Hex, result: unknown) => void

/** One live subscription. */
interface Subscription {
  readonly kind: SubscriptionKind
  readonly connection: SubscriptionConnection
  /** Address and topic filters of a `logs` subscription (block ranges are ignored: it reports new blocks only). */
  readonly criteria: LogCriteria | undefined
}

/** A subscription limit was reached (the manager's {@link SubscriptionLimits}). */
export class SubscriptionLimitError extends RpcError {
  override name = 'SubscriptionLimitError'
  override readonly dualnetCode: DualnetErrorCode = 'DUALNET_ERR_SUBSCRIPTION_LIMIT'
  constructor(message: string) {
    super(RpcErrorCode.ServerError, message)
  }
}

/**
 * Limits the manager enforces on new subscriptions; `Infinity` means none (the
 * default). Raising or lowering them affects later eth_subscribe calls only.
 */
export interface SubscriptionLimits {
  /** Live subscriptions one connection may hold. */
  perConnection: number
  /** Live subscriptions in the whole devnet. */
  total: number
}

/**
 * A client's side of the subscriptions: one per WebSocket, one for the in-process
 * EIP-1193 provider. While an eth_subscribe answer is on its way ({@link hold}),
 * notifications wait, so that a client never sees a notification for an id it has
 * not been told yet (ethers and viem drop those).
 */
export class SubscriptionConnection {
  readonly #manager: SubscriptionManager
  readonly #sink: NotificationSink
  readonly ids = new Set<Hex>()
  #held = 0
  #waiting: [Hex, unknown][] = []
  #closed = false

  constructor(manager: SubscriptionManager, sink: NotificationSink) {
    this.#manager = manager
    this.#sink = sink
  }

  /** Holds notifications back until the matching {@link release}. */
  hold(): void {
    this.#held++
  }

  /** Ends one {@link hold}; with none left, delivers what waited, in order. */
  release(): void {
    if (--this.#held > 0) return
    const waiting = this.#waiting
    this.#waiting = []
    for (const [id, result] of waiting) if (this.ids.has(id)) this.#sink(id, result)
  }

  /** Delivers (or queues while held) one notification. */
  notify(id: Hex, result: unknown): void {
    if (this.#closed) return
    if (this.#held > 0) this.#waiting.push([id, result])
    else this.#sink(id, result)
  }

  /** Cancels every subscription of this connection (a socket closed); later notifications are dropped. */
  close(): void {
    this.#closed = true
    this.#waiting = []
    for (const id of [...this.ids]) this.#manager.unsubscribe(this, id)
  }

  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.#closed
  }
}

/** All subscriptions of one devnet. */
export class SubscriptionManager {
  #chain: Chain
  readonly #subscriptions = new Map<Hex, Subscription>()
  readonly #counts: Record<SubscriptionKind, number> = { newHeads: 0, logs: 0, newPendingTransactions: 0 }
  #unwatch: (() => void) | undefined
  /** Limits on new subscriptions (none by default); see {@link SubscriptionLimits}. */
  readonly limits: SubscriptionLimits = { perConnection: Infinity, total: Infinity }
  /** Option stateRoot: under 'merkle' a head carries the trie's root, computed before it is sent. */
  readonly #stateRoot: 'zero' | 'merkle'
  /** The heads still being given their root, in order: each waits for the one before it. */
  #rooting: Promise<void> = Promise.resolve()

  /** `stateRoot`: the option of the same name (default 'zero', the node's zero hash in every header). */
  constructor(chain: Chain, stateRoot: 'zero' | 'merkle' = 'zero') {
    this.#chain = chain
    this.#stateRoot = stateRoot
  }

  /** Live subscriptions. */
  get size(): number {
    return this.#subscriptions.size
  }

  /** A new connection whose notifications go to `sink`. */
  connect(sink: NotificationSink): SubscriptionConnection {
    return new SubscriptionConnection(this, sink)
  }

  /**
   * Starts a subscription of `kind` for `connection` and returns its id (16 random
   * bytes, 0x-hex, as go-ethereum's). `criteria` filters a `logs` subscription.
   * Throws {@link SubscriptionLimitError} above a limit.
   */
  subscribe(connection: SubscriptionConnection, kind: SubscriptionKind, criteria?: LogCriteria): Hex {
    if (connection.closed) throw new RpcError(RpcErrorCode.ServerError, 'connection closed')
    if (connection.ids.size >= this.limits.perConnection) {
      throw new SubscriptionLimitError(`too many subscriptions on this connection (limit ${this.limits.perConnection})`)
    }
    if (this.#subscriptions.size >= this.limits.total) throw new SubscriptionLimitError(`too many subscriptions (limit ${this.limits.total})`)
    const id = toHex(randomBytes(16))
    this.#subscriptions.set(id, { kind, connection, criteria })
    connection.ids.add(id)
    this.#counts[kind]++
    this.#unwatch ??= this.#watch()
    return id
  }

  /** Cancels subscription `id` of `connection`; whether it was live there (go-ethereum: ids of other connections are unknown). */
  unsubscribe(connection: SubscriptionConnection, id: Hex): boolean {
    const subscription = this.#subscriptions.get(id)
    if (subscription === undefined || subscription.connection !== connection) return false
    this.#subscriptions.delete(id)
    connection.ids.delete(id)
    this.#counts[subscription.kind]--
    if (this.#subscriptions.size === 0) {
      this.#unwatch?.()
      this.#unwatch = undefined
    }
    return true
  }

  /**
   * Moves the subscriptions to `chain` (a reset: a fresh chain replaced the old one)
   * and tells `newHeads` subscribers about its head.
   */
  rebind(chain: Chain): void {
    this.#unwatch?.()
    this.#chain = chain
    this.#unwatch = this.#subscriptions.size === 0 ? undefined : this.#watch()
    if (this.#counts.newHeads > 0) this.#heads(chain.height, chain.height)
  }

  #watch(): () => void {
    return this.#chain.watch({
      blocks: (from, to) => {
        if (this.#counts.newHeads > 0) this.#heads(from, to)
        if (this.#counts.logs > 0) this.#logs(from, to)
      },
      accepted: (hash) => {
        if (this.#counts.newPendingTransactions > 0) this.#send('newPendingTransactions', toHex(hash))
      },
    })
  }

  #heads(from: number, to: number): void {
    if (this.#stateRoot === 'zero') {
      for (let height = from; height <= to; height++) this.#send('newHeads', renderHeader(this.#chain, height))
      return
    }
    // The root is the one eth_getBlockByNumber answers for the block (rpc/stateRoots.ts); the trie loads only with the option.
    const chain = this.#chain
    const heads = Array.from({ length: to - from + 1 }, (_, i) => ({ block: chain.blockAt(from + i)!, header: renderHeader(chain, from + i) }))
    this.#rooting = this.#rooting.then(async () => {
      const { withStateRoot } = await import('./stateRoots.ts')
      for (const { block, header } of heads) {
        // A root that cannot be computed must not lose the head: it goes out with the node's zero root.
        this.#send('newHeads', await withStateRoot({ stateRoot: 'merkle', chain }, block, header).catch(() => header))
      }
    })
  }

  #logs(from: number, to: number): void {
    for (const [id, subscription] of this.#subscriptions) {
      if (subscription.kind !== 'logs') continue
      for (const log of matchingLogs(this.#chain, from, to, subscription.criteria!)) subscription.connection.notify(id, log)
    }
  }

  #send(kind: SubscriptionKind, result: unknown): void {
    for (const [id, subscription] of this.#subscriptions) if (subscription.kind === kind) subscription.connection.notify(id, result)
  }
}

/** A `newHeads` result: the block as eth_getBlockByNumber renders it, without its transactions (reference §6.3). */
export function renderHeader(chain: Chain, height: number): Omit<ReturnType<typeof formatBlock>, 'transactions'> {
  const { transactions: _, ...header } = formatBlock(chain.blockAt(height)!, false)
  return header
}
