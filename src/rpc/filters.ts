/**
 * Polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter,
 * eth_getFilterChanges, eth_getFilterLogs, eth_uninstallFilter), as go-ethereum serves
 * them and the real node with it (reference §6.2): each filter remembers how far it
 * has been read. go-ethereum expires a filter not polled for 5 minutes; here the 5
 * minutes count from the first change the filter has not collected, so a filter on a
 * quiet chain never expires. That keeps alive the listeners of clients that poll a
 * filter only when a new block appears (ethers' `BrowserProvider` and
 * `JsonRpcProvider` event filters), which a quiet devnet would otherwise kill
 * (Hardhat's hardhat#2053); an abandoned filter still expires once the chain moves.
 * Expiry is checked on use, so no timer holds the process open; while filters exist,
 * the registry watches the chain to note when a change arrives.
 */
import type { Chain } from '../chain/chain.ts'
import { toHex, type Hex } from '../util/hex.ts'
import { matchingLogs, type LogCriteria } from './logQuery.ts'
import { DEFAULT_RPC_LIMITS, type RpcLimits } from './limits.ts'
import { RpcError, RpcErrorCode } from './errors.ts'

/** How long a filter lives with a change it has not collected, in milliseconds (go-ethereum's 5 minutes). */
const FILTER_TIMEOUT_MS = 5 * 60 * 1000

/** `waiting`: wall time (ms) of the first change the filter has not collected since its last poll; absent: none. */
type Filter =
  | { kind: 'logs'; criteria: LogCriteria; nextHeight: number; waiting?: number }
  | { kind: 'blocks'; nextHeight: number; waiting?: number }
  | { kind: 'pending'; nextAccepted: number; waiting?: number }

/** The filters of one devnet, by id. */
export class FilterRegistry {
  readonly #filters = new Map<Hex, Filter>()
  readonly #limits: Pick<RpcLimits, 'filterLimit' | 'logsResultLimit'>
  #nextId = 1n
  /** The chain watched while filters exist (to date their first uncollected change). */
  #watching: { chain: Chain; stop: () => void } | undefined

  /** `limits`: most installed filters, most logs per poll (README "Limits and guarantees"). */
  constructor(limits: Pick<RpcLimits, 'filterLimit' | 'logsResultLimit'> = DEFAULT_RPC_LIMITS) {
    this.#limits = limits
  }

  /** Installs a log filter that reports logs of blocks mined from now on (or from its fromBlock). */
  installLogs(chain: Chain, criteria: LogCriteria): Hex {
    return this.#install(chain, { kind: 'logs', criteria, nextHeight: chain.height + 1 })
  }

  /** Installs a filter reporting the hashes of new blocks. */
  installBlocks(chain: Chain): Hex {
    return this.#install(chain, { kind: 'blocks', nextHeight: chain.height + 1 })
  }

  /** Installs a filter reporting the hashes of newly accepted transactions. */
  installPending(chain: Chain): Hex {
    return this.#install(chain, { kind: 'pending', nextAccepted: chain.acceptedSince(0).count })
  }

  /** The filter with `id`, or `undefined` (unknown or expired). */
  get(id: Hex): Filter | undefined {
    this.#expire()
    const filter = this.#filters.get(id)
    if (filter !== undefined) delete filter.waiting
    return filter
  }

  /** Removes the filter; whether it existed. */
  uninstall(id: Hex): boolean {
    this.#expire()
    const removed = this.#filters.delete(id)
    this.#unwatchIfEmpty()
    return removed
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

  #install(chain: Chain, filter: Filter): Hex {
    this.#expire()
    if (this.#filters.size >= this.#limits.filterLimit) {
      throw new RpcError(RpcErrorCode.ServerError, `too many filters: the limit is ${this.#limits.filterLimit} (option filterLimit); uninstall some with eth_uninstallFilter`)
    }
    const id = `0x${(this.#nextId++).toString(16)}` as Hex
    this.#filters.set(id, filter)
    this.#watch(chain)
    return id
  }

  /** Dates the first uncollected change of every filter it concerns (called by the chain, in its queue). */
  #watch(chain: Chain): void {
    if (this.#watching?.chain === chain) return
    this.#watching?.stop()
    const stop = chain.watch({
      blocks: () => this.#noteChange('blocks'),
      accepted: () => this.#noteChange('pending'),
    })
    this.#watching = { chain, stop }
  }

  #noteChange(what: 'blocks' | 'pending'): void {
    const now = Date.now()
    for (const filter of this.#filters.values()) {
      if ((filter.kind === 'pending') === (what === 'pending')) filter.waiting ??= now
    }
  }

  #unwatchIfEmpty(): void {
    if (this.#filters.size > 0 || this.#watching === undefined) return
    this.#watching.stop()
    this.#watching = undefined
  }

  #expire(): void {
    const cutoff = Date.now() - FILTER_TIMEOUT_MS
    for (const [id, filter] of this.#filters) if (filter.waiting !== undefined && filter.waiting < cutoff) this.#filters.delete(id)
    this.#unwatchIfEmpty()
  }
}
