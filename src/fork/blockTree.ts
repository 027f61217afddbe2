/**
 * The native header chain of a fork with the remote's REST URL (docs/fork.md "The
 * native header chain"): the fork block's header is the remote's (every field of its
 * REST header), and the BlockRoot tree of local blocks continues the remote's.
 *
 * BlockRoot at height h is the root of a compact (RFC 6962) tree over the
 * TransactionsRoots of blocks 0..h (reference §5.3); appending needs only the tree's
 * frontier (the roots of its perfect subtrees, one per 1-bit of its size: a block's
 * `peaks`). The remote's merkle proof of a transaction in block m (reference §5.4) is
 * the audit path of leaf m, whose left-hand hashes are exactly the frontier over blocks
 * 0..m-1; the TransactionsRoots of blocks m..fork block (their REST headers) complete
 * the frontier at the fork block, which is checked against the fork block's BlockRoot.
 */
import type { BlockHeader } from '../native/blockHeader.ts'
import { appendLeaf, rootFromPeaks, verifyAuditPath } from '../native/merkle.ts'
import { fromBase58 } from '../native/address.ts'
import { ForkRemoteError } from './remote.ts'
import { RemoteRestErrorAnswer, type RemoteRestHistory } from './restHistory.ts'
import { bytesEqual, toHexRaw } from '../util/hex.ts'
import { stringifyLosslessJson } from '../util/losslessJson.ts'

/** How far below the fork block a block with a transaction is looked for (each block one REST request). */
export const FRONTIER_WALK_LIMIT = 256
/** REST requests of the walk in flight at once, at most. */
const WALK_CONCURRENCY = 16

/** The remote's fork block in the native view, and the BlockRoot tree local blocks continue. */
export interface ForkBlockTree {
  /** The fork block's header as the remote's REST view has it. */
  header: BlockHeader
  /** That REST Header object as JSON text (what a database keeps). */
  headerJson: string
  /** The fork block's SigData, raw. */
  signatures: Uint8Array[]
  /** The frontier over blocks 0..fork block (largest subtree first), when it could be rebuilt. */
  peaks: Uint8Array[] | undefined
  /** Why the frontier could not be rebuilt (local BlockRoots then start a tree of their own), else `undefined`. */
  gap: string | undefined
}

/** A block's REST path (get_blk_by_height), as the REST view asks it too (so one answer serves both). */
export const blockPath = (height: number) => `/api/v1/block/details/height/${height}`

/** The REST block JSON's fields read here. */
interface RestBlockJson {
  Hash: string
  Header: Record<string, unknown>
  Transactions: { Hash: string }[]
}

/**
 * The fork block at `history.height` and the frontier of the remote's BlockRoot tree
 * there. Rejects with ForkRemoteError when the remote fails or has no such block; a
 * frontier that cannot be rebuilt (no block with a transaction within
 * {@link FRONTIER_WALK_LIMIT} blocks, an error from the merkle route, a proof that does
 * not check) is a `gap`, not a failure.
 */
export async function remoteBlockTree(history: RemoteRestHistory): Promise<ForkBlockTree> {
  const height = history.height
  const top = await block(history, height)
  const fork = { ...headerFromRest(top.Header), headerJson: stringifyLosslessJson(top.Header) }
  const { header } = fork
  if (header.height !== height) throw failure(history, blockPath(height), `the answer is block ${header.height}`)
  if (height === 0) return { ...fork, peaks: [header.transactionsRoot], gap: undefined }
  // Walk down to the newest block with a transaction, a few requests at a time; the walk's blocks give the leaves above it.
  const blocks = new Map<number, RestBlockJson>([[height, top]])
  let m = top.Transactions.length > 0 ? height : undefined
  const lowest = Math.max(0, height - FRONTIER_WALK_LIMIT + 1)
  // One block, then twice as many at a time up to WALK_CONCURRENCY: few requests where transactions are dense, few round trips where they are sparse.
  for (let next = height - 1, step = 1; m === undefined && next >= lowest; next -= step, step = Math.min(step * 2, WALK_CONCURRENCY)) {
    const heights = Array.from({ length: Math.min(step, next - lowest + 1) }, (_, i) => next - i)
    const found = await Promise.all(heights.map((h) => block(history, h)))
    for (const [i, b] of found.entries()) blocks.set(heights[i]!, b)
    m = heights.find((_, i) => found[i]!.Transactions.length > 0)
  }
  if (m === undefined) return { ...fork, peaks: undefined, gap: `no block from ${lowest} to the fork block ${height} holds a transaction, whose merkle proof would give the tree's frontier` }
  const leaves: Uint8Array[] = []
  for (let h = m; h <= height; h++) leaves.push(headerFromRest(blocks.get(h)!.Header).header.transactionsRoot)
  const left = await leftFrontier(history, blocks.get(m)!.Transactions[0]!.Hash, m, leaves[0]!)
  if (typeof left === 'string') return { ...fork, peaks: undefined, gap: left }
  let peaks = left
  for (const [i, leaf] of leaves.entries()) peaks = appendLeaf(peaks, m + i, leaf)
  if (!bytesEqual(rootFromPeaks(peaks), header.blockRoot))
    return { ...fork, peaks: undefined, gap: `the tree rebuilt from the remote's merkle proof of block ${m} does not give the fork block's BlockRoot` }
  return { ...fork, peaks, gap: undefined }
}

/**
 * The frontier over blocks 0..m-1 (largest subtree first) from the remote's merkle
 * proof of `txHash` (REST form), a transaction of block `m` whose TransactionsRoot is
 * `leaf`; or why it cannot be had (a string).
 */
async function leftFrontier(history: RemoteRestHistory, txHash: string, m: number, leaf: Uint8Array): Promise<Uint8Array[] | string> {
  const path = `/api/v1/merkleproof/${txHash}`
  try {
    await history.load([path])
  } catch (err) {
    // An error answer with a text (a remote that serves no proofs, as a fork without REST); not kept.
    if (err instanceof RemoteRestErrorAnswer) return `the remote's merkle proof route answered error ${err.code} ${JSON.stringify(err.result)} (GET ${path})`
    throw err
  }
  const { Error: code, Result: proof } = history.answer(path)
  if (code !== 0) return `the remote's merkle proof route answered error ${code} (GET ${path})`
  const { BlockHeight, CurBlockHeight, CurBlockRoot, TargetHashes, TransactionsRoot } = (proof ?? {}) as Record<string, unknown>
  const hashes = ((TargetHashes ?? []) as unknown[]).map(rawHash)
  const root = rawHash(CurBlockRoot)
  const n = Number(CurBlockHeight) + 1
  const usable =
    BlockHeight === m &&
    Number.isSafeInteger(n) &&
    n > m &&
    Array.isArray(TargetHashes ?? []) &&
    root !== undefined &&
    hashes.every((h) => h !== undefined) &&
    bytesEqual(rawHash(TransactionsRoot) ?? new Uint8Array(0), leaf) &&
    verifyAuditPath(leaf, m, n, hashes as Uint8Array[], root)
  if (!usable) return `the remote's merkle proof of block ${m} (GET ${path}) does not check against its TransactionsRoot and CurBlockRoot`
  // The audit loop of reference §5.4: an odd index takes its sibling from the left.
  const left: Uint8Array[] = []
  let pos = 0
  for (let i = m, last = n - 1; last > 0; i = Math.floor(i / 2), last = Math.floor(last / 2)) {
    if (i % 2 === 1) left.push(hashes[pos++]!)
    else if (i < last) pos++
  }
  return left.reverse()
}

/** The remote's REST block at `height`; rejects with ForkRemoteError when it has none. */
async function block(history: RemoteRestHistory, height: number): Promise<RestBlockJson> {
  const path = blockPath(height)
  await history.load([path])
  const { Error: code, Result: result } = history.answer(path)
  const json = result as RestBlockJson
  if (code !== 0 || typeof json !== 'object' || json === null || typeof json.Header !== 'object' || !Array.isArray(json.Transactions))
    throw failure(history, path, `the remote answered error ${code}, not a block`)
  return json
}

/**
 * A block header from the REST Header object (reference §1.4.1): hashes reversed
 * hex, NextBookkeeper Base58, keys and signatures hex. Throws TypeError for a field
 * that is not what the node writes.
 */
export function headerFromRest(json: Record<string, unknown>): { header: BlockHeader; signatures: Uint8Array[] } {
  const hash = (name: string) => rawHash(json[name]) ?? bad(name)
  const hex = (name: string, value: unknown) => (typeof value === 'string' && /^([0-9a-fA-F]{2})*$/.test(value) ? new Uint8Array(Buffer.from(value, 'hex')) : bad(name))
  const u32 = (name: string) => (Number.isInteger(json[name]) && (json[name] as number) >= 0 && (json[name] as number) < 2 ** 32 ? (json[name] as number) : bad(name))
  const list = (name: string) => (Array.isArray(json[name]) ? (json[name] as unknown[]).map((v) => hex(name, v)) : bad(name))
  const consensus = json.ConsensusData
  if (typeof consensus !== 'bigint' && !Number.isSafeInteger(consensus)) bad('ConsensusData')
  let nextBookkeeper: Uint8Array
  try {
    nextBookkeeper = fromBase58(String(json.NextBookkeeper))
  } catch {
    bad('NextBookkeeper')
  }
  const header: BlockHeader = {
    version: u32('Version'),
    prevHash: hash('PrevBlockHash'),
    transactionsRoot: hash('TransactionsRoot'),
    blockRoot: hash('BlockRoot'),
    timestamp: u32('Timestamp'),
    height: u32('Height'),
    consensusData: BigInt(consensus as bigint | number),
    consensusPayload: hex('ConsensusPayload', json.ConsensusPayload),
    nextBookkeeper,
    bookkeepers: list('Bookkeepers'),
  }
  return { header, signatures: list('SigData') }
}

function bad(field: string): never {
  throw new TypeError(`fork: the remote's REST block header has a malformed ${field}`)
}

/** Raw bytes of a REST-form (byte-reversed) 32-byte hash, or `undefined`. */
function rawHash(value: unknown): Uint8Array | undefined {
  return typeof value === 'string' && /^[0-9a-fA-F]{64}$/.test(value) ? new Uint8Array(Buffer.from(value, 'hex').reverse()) : undefined
}

function failure(history: RemoteRestHistory, path: string, reason: string): ForkRemoteError {
  return new ForkRemoteError(history.remote.restUrl!, { method: `GET ${path}`, params: [] }, reason)
}

/** Hex of each hash (the database's form of a frontier). */
export function peaksHex(peaks: readonly Uint8Array[]): string[] {
  return peaks.map((p) => toHexRaw(p))
}
