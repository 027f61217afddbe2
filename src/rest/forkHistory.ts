/**
 * The REST view of a fork's history (docs/fork.md "History before the fork"): with the
 * remote's REST URL, a block, transaction, event record or merkle proof at or below
 * the fork block is the remote's REST answer (its Result as given, its error as an
 * error of the same code), kept once fetched (fork/restHistory.ts); blocks the
 * fork builds after it are its own. Without the REST URL these helpers answer
 * `undefined` and the routes answer as for a block or transaction they do not know.
 * The router reads them through the routes' declared fork policies (rest/forkPolicy.ts).
 *
 * A hash the fork cannot place (a transaction or block it did not build) goes to the
 * remote, whose answer counts only when its block lies at or below the fork block:
 * what the remote did after the fork is not the fork's.
 *
 * The helpers read synchronously and throw ForkMiss while an answer is not fetched
 * (the REST dispatch fetches it and runs the route again).
 */
import type { RestContext } from './context.ts'
import { RestError } from './errors.ts'
import type { RemoteRestHistory, RestHistoryAnswer } from '../fork/restHistory.ts'
import { toHexRaw, toReversedHex } from '../util/hex.ts'

/** The fork's REST history when the fork has the remote's REST URL, else `undefined`. */
export function restHistory(ctx: RestContext): RemoteRestHistory | undefined {
  return ctx.chain.fork?.restHistory
}

/** The Result of `answer`; for an error answer throws RestError with its code and Result. */
export function resultOf(answer: RestHistoryAnswer): unknown {
  if (answer.Error !== 0) throw new RestError(answer.Error, answer.Result)
  return answer.Result
}

/** The remote's Result for `GET path`, or its error as a RestError. Throws ForkMiss until fetched. */
export function remoteResult(history: RemoteRestHistory, path: string): unknown {
  return resultOf(history.answer(path))
}

/**
 * For the transaction `hash` (raw bytes) that the fork did not mine: the remote's
 * answer to `path` (its REST path for the hash) when the remote mined it at or below
 * the fork block (asked together with its height), else `undefined`. `undefined` too
 * without the remote's REST URL, and for a transaction in the fork's pool.
 */
export function remoteTransactionAnswer(ctx: RestContext, hash: Uint8Array, path: string): RestHistoryAnswer | undefined {
  const history = restHistory(ctx)
  const raw = toHexRaw(hash)
  if (history === undefined || ctx.chain.mempool.get(raw) !== undefined || ctx.chain.mempool.getNative(raw) !== undefined) return undefined
  const [height, answer] = history.answers([`/api/v1/block/height/txhash/${toReversedHex(hash)}`, path])
  return placed(history, height!) ? answer : undefined
}

/** Whether a get_blk_hgt_by_txhash answer names a block at or below the fork block. */
function placed(history: RemoteRestHistory, height: RestHistoryAnswer): boolean {
  return height.Error === 0 && typeof height.Result === 'number' && height.Result <= history.height
}

/**
 * For the block `hash` (raw bytes) that the fork did not build (the fork block, or a
 * block it does not hold): the remote's answer to `path`, a get_blk_by_hash path
 * (`raw` when it asks for the raw hex), when the block lies at or below the fork
 * block, else `undefined`.
 */
export function remoteBlockByHash(ctx: RestContext, hash: Uint8Array, path: string, raw: boolean): RestHistoryAnswer | undefined {
  const history = restHistory(ctx)
  if (history === undefined) return undefined
  const local = ctx.chain.blockByHash(toHexRaw(hash))
  if (local !== undefined && local.header.height > history.height) return undefined
  const answer = history.answer(path)
  if (answer.Error !== 0) return answer
  return blockHeight(answer.Result, raw) <= history.height ? answer : undefined
}

/** Height of a block answer: the JSON's Header.Height, or the u32 at byte 104 of the raw header (reference §5.1). */
function blockHeight(result: unknown, raw: boolean): number {
  if (raw) return typeof result === 'string' && result.length >= 216 ? Buffer.from(result.slice(208, 216), 'hex').readUInt32LE(0) : Number.POSITIVE_INFINITY
  const height = (result as { Header?: { Height?: unknown } } | null)?.Header?.Height
  return typeof height === 'number' ? height : Number.POSITIVE_INFINITY
}
