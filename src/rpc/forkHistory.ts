/**
 * The JSON-RPC view of a fork's history (docs/fork.md "History before the fork"): a
 * block at or below the fork block, its transactions, receipts and logs are the
 * remote's, answered as the remote answers them (byte-equal) from its kept answers
 * (state/fork/history.ts); the blocks the fork builds after it are its own. The fork
 * block itself is the remote's too: the local chain holds only its header fields.
 *
 * A call addressed by hash that the fork cannot place (a transaction or block it does
 * not hold) goes to the remote, whose answer counts only when it lies at or below the
 * fork block: what the remote did after the fork (a later block, a pending
 * transaction) is not the fork's, and answers null as an unknown hash does.
 *
 * The helpers read synchronously and throw ForkMiss while an answer is not fetched
 * (the dispatch fetches it and runs the method again).
 */
import type { Chain, SimulationBlock } from '../chain/chain.ts'
import type { RemoteHistory } from '../state/fork/history.ts'
import { toHex, toHexRaw, toQuantity, type Hex } from '../util/hex.ts'

/** The remote history of `chain` when it forks a remote, else `undefined`. */
export function forkHistory(chain: Chain): RemoteHistory | undefined {
  return chain.world.fork?.history
}

/** The remote history when the remote answers for `height` (at or below the fork block), else `undefined`. */
export function historyAt(chain: Chain, height: number): RemoteHistory | undefined {
  const history = forkHistory(chain)
  return history !== undefined && height <= history.height ? history : undefined
}

/**
 * The remote history when `height` is below the fork block: state there is the
 * remote's at that block (the fork holds state from the fork block on), so reads and
 * simulations at it go to the remote. `undefined` at the fork block and later, or on a
 * plain devnet.
 */
export function historyBelow(chain: Chain, height: number): RemoteHistory | undefined {
  const history = forkHistory(chain)
  return history !== undefined && height < history.height ? history : undefined
}

/**
 * For a simulation (eth_call, eth_estimateGas, debug_traceCall) at `at` below the fork
 * block: the remote that runs it, and the block as a quantity; else `undefined`.
 */
export function remoteSimulation(chain: Chain, at: SimulationBlock): { history: RemoteHistory; block: Hex } | undefined {
  if (at === 'pending') return undefined
  const history = historyBelow(chain, at)
  return history === undefined ? undefined : { history, block: toQuantity(at) }
}

/**
 * The remote history when the block with hash `hash` (64 hex, no 0x) is not one the
 * fork built: the fork block, or a block the fork does not hold (perhaps one of the
 * remote's). `undefined` for a block built here, or on a plain devnet.
 */
export function historyForBlockHash(chain: Chain, hash: string): RemoteHistory | undefined {
  const history = forkHistory(chain)
  if (history === undefined) return undefined
  const block = chain.blockByHash(hash)
  return block === undefined || block.header.height <= history.height ? history : undefined
}

/**
 * The remote's answer to `method(params)` about one block (`field` `number`) or one
 * transaction, receipt or log holder (`field` `blockNumber`), when it lies at or
 * below the fork block; else null (the remote has none, or has it after the fork).
 */
export function remoteObject(history: RemoteHistory, method: string, params: readonly unknown[], field: 'number' | 'blockNumber'): unknown {
  const answer = history.answer(method, params)
  return heightOf(history, answer, field) === undefined ? null : answer
}

/**
 * The remote's answer to `method(params)`, a call about the block `hash` (0x-hex), when
 * that block lies at or below the fork block; else null. The block's header
 * (eth_getBlockByHash without transactions) comes in the same batch.
 */
export function remoteForBlockHash(history: RemoteHistory, hash: Hex, method: string, params: readonly unknown[]): unknown {
  const [block, answer] = history.answers([
    { method: 'eth_getBlockByHash', params: [hash, false] },
    { method, params },
  ])
  return heightOf(history, block, 'number') === undefined ? null : answer
}

/** Height of the remote's block `hash` (0x-hex) when it lies at or below the fork block, else `undefined`. */
export function remoteBlockHeight(history: RemoteHistory, hash: Hex): number | undefined {
  return heightOf(history, history.answer('eth_getBlockByHash', [hash, false]), 'number')
}

/**
 * The remote's eth_getBlockByNumber answer for `height` (with full transaction
 * objects or hashes), when it answers that very block; else null.
 */
export function remoteBlockAt(history: RemoteHistory, height: number, fullTransactions: boolean): unknown {
  const block = history.answer('eth_getBlockByNumber', [toQuantity(height), fullTransactions])
  return heightOf(history, block, 'number') === height ? block : null
}

/**
 * The remote's receipt of the transaction `hash` that the fork does not hold: null on
 * a plain devnet, for a transaction pending here, and for one the remote did not mine
 * at or below the fork block.
 */
export function remoteReceipt(chain: Chain, hash: Uint8Array): unknown {
  const history = forkHistory(chain)
  if (history === undefined || chain.mempool.get(toHexRaw(hash)) !== undefined) return null
  return remoteObject(history, 'eth_getTransactionReceipt', [toHex(hash)], 'blockNumber')
}

/** The block number in `answer[field]` when it is a quantity at or below the fork block, else `undefined`. */
function heightOf(history: RemoteHistory, answer: unknown, field: 'number' | 'blockNumber'): number | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined
  const value = (answer as Record<string, unknown>)[field]
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,15}$/.test(value)) return undefined
  const height = Number(value)
  return height <= history.height ? height : undefined
}
