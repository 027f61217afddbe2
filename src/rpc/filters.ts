/**
 * Polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter,
 * eth_getFilterChanges, eth_getFilterLogs, eth_uninstallFilter), as go-ethereum serves
 * them and the real node with it (reference §6.2): each filter remembers how far it
 * has been read, and one not polled for 5 minutes expires. Expiry is checked on use,
 * so no timer holds the process open.
 */
import type { Chain } from '../chain/chain.ts'
import { toHex, type Hex } from '../util/hex.ts'
import { matchingLogs, type LogCriteria } from './logQuery.ts'
import { DEFAULT_RPC_LIMITS, type RpcLimits } from './limits.ts'
import { RpcError, RpcErrorCode } from './errors.ts'

/** How long a filter lives without being polled, in milliseconds. */
const FILTER_TIMEOUT_MS = 5 * 60 * 1000

type Filter =
  | { kind: 'logs'; criteria: LogCriteria; nextHeight: number; polled: number }
  | { kind: 'blocks'; nextHeight: number; polled: number }
  | { kind: 'pending'; nextAccepted: number; polled: number }

/** The filters of one devnet, by id. */
export class FilterRegistry {
  readonly #filters = new Map<Hex, Filter>()
  readonly #limits: Pick<RpcLimits, 'filterLimit' | 'logsResultLimit'>
  #nextId = 1n

  /** `limits`: most installed filters, most logs per poll (README "Limits and guarantees"). */
  constructor(limits: Pick<RpcLimits, 'filterLimit' | 'logsResultLimit'> = DEFAULT_RPC_LIMITS) {
    this.#limits = limits
  }

  /** Installs a log filter that reports logs of blocks mined from now on (or from its fromBlock). */
  installLogs(chain: Chain, criteria: LogCriteria): Hex {
    return this.#install({ kind: 'logs', criteria, nextHeight: chain.height + 1, polled: Date.now() })
  }

  /** Installs a filter reporting the hashes of new blocks. */
  installBlocks(chain: Chain): Hex {
    return this.#install({ kind: 'blocks', nextHeight: chain.height + 1, polled: Date.now() })
  }

  /** Installs a filter reporting the hashes of newly accepted transactions. */
  installPending(chain: Chain): Hex {
    return this.#install({ kind: 'pending', nextAccepted: chain.acceptedSince(0).count, polled: Date.now() })
  }

  /** The filter with `id`, or `undefined` (unknown or expired). */
  get(id: Hex): Filter | undefined {
    this.#expire()
    const filter = this.#filters.get(id)
    if (filter !== undefined) filter.polled = Date.now()
    return filter
  }

  /** Removes the filter; whether it existed. */
  uninstall(id: Hex): boolean {
    this.#expire()
    return this.#filters.delete(id)
  }

  /** What happened since the last poll: logs, block hashes or transaction hashes. */
  changes(chain: Chain, filter: Filter): unknown[] {
    if (filter.kind === 'pending') {
      const { hashes, count } = chain.acceptedSince(filter.nextAccepted)
      filter.nextAccepted = count
      return hashes.map((h) => toHex(h))
    }
    const from = filter.nextHeight
    const to = filter.kind === 'logs' && filter.criteria.toBlock !== undefined ? Math.min(filter.criteria.toBlock, chain.height) : chain.height
    const next = Math.max(from, chain.height + 1)
    if (filter.kind === 'blocks') {
      filter.nextHeight = next
      const hashes: Hex[] = []
      for (let h = from; h <= chain.height; h++) hashes.push(toHex(chain.blockAt(h)!.hash))
      return hashes
    }
    const start = Math.max(from, filter.criteria.fromBlock ?? 0)
    // Above the result limit this throws and the filter stays where it was.
    const logs = matchingLogs(chain, start, to, filter.criteria, this.#limits.logsResultLimit)
    filter.nextHeight = next
    return logs
  }

  #install(filter: Filter): Hex {
    this.#expire()
    if (this.#filters.size >= this.#limits.filterLimit) {
      throw new RpcError(RpcErrorCode.ServerError, `too many filters: the limit is ${this.#limits.filterLimit} (option filterLimit); uninstall some with eth_uninstallFilter`)
    }
    const id = `0x${(this.#nextId++).toString(16)}` as Hex
    this.#filters.set(id, filter)
    return id
  }

  #expire(): void {
    const cutoff = Date.now() - FILTER_TIMEOUT_MS
    for (const [id, filter] of this.#filters) if (filter.polled < cutoff) this.#filters.delete(id)
  }
}
