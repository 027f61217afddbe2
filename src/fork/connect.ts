/**
 * Forking a live node: connecting to the remote, choosing the fork block, and the
 * block the local chain continues from (the remote's block at the fork height, with
 * its hash, so that local block `n + 1` names it as parent in both views).
 *
 * State comes from the remote lazily (fork/source.ts); this module makes
 * the chain's first block and checks what the remote can serve.
 */
import type { BlockHeader } from '../native/blockHeader.ts'
import { ForkSource } from './source.ts'
import { RemoteHistory } from './history.ts'
import { RemoteRestHistory } from './restHistory.ts'
import { headerFromRest, peaksHex, remoteBlockTree, type ForkBlockTree } from './blockTree.ts'
import { parseLosslessJson } from '../util/losslessJson.ts'
import { RemoteNode, type RemoteCall, type RemoteOptions } from './remote.ts'
import {
  CHAIN_ID,
  EVM_BLOCK_NUMBER,
  MAX_CLIENT_VERSION,
  NATIVE_HEIGHT,
  NETWORK_ID,
  remoteBlock,
  remoteNetVersion,
  remoteQuantity,
  remoteText,
  remoteWholeNumber,
  refuseAnswer,
  type Answered,
} from './remoteValues.ts'
import { restNativeFetcher } from './nativeFetcher.ts'
import type { WorldState } from '../state/worldState.ts'
import { attachForkCache, defaultForkCacheDir, forkCacheFile } from './cache.ts'
import { toHexRaw } from '../util/hex.ts'
import { ForkOptionError } from './optionError.ts'

/** The `fork` option of createDevnet: the remote node to fork and where. */
export interface ForkOptions {
  /** JSON-RPC URL of the remote node (http or https), e.g. `http://127.0.0.1:20339`. */
  url: string
  /**
   * Base URL of the remote's REST interface (`http://127.0.0.1:20334`), for its native
   * state: main-token balances, allowances, unbound gas, native contract storage,
   * contract states, and the REST network id. Without it only the EVM view is forked
   * and native-only reads answer that they are not forked (docs/fork.md). REST answers
   * the remote's latest state only, so with it `blockNumber` may not be below the
   * remote's latest block.
   */
  restUrl?: string
  /**
   * Block to fork at; default the remote's latest. A past block needs a remote that
   * serves state at past blocks (an archive node, Anvil, another dualnet): the real
   * node answers its latest state whatever block is asked, so with it (detected by
   * web3_clientVersion `Ontology-…`) a past block is refused.
   */
  blockNumber?: number
  /**
   * Directory of the disk cache of fetched values (fork/cache.ts), or `false` for
   * none. Default: with `blockNumber`, `$XDG_CACHE_HOME/dualnet/fork` (else
   * `~/.cache/dualnet/fork`); without it (the remote's latest block, a different block
   * each run) none.
   */
  cache?: string | false
  /** Time-out and retries of remote calls (see RemoteOptions). */
  remote?: RemoteOptions
  /**
   * Bytes of the remote's history answers (blocks, transactions, receipts, logs at or
   * below the fork block) kept in memory, for each of the JSON-RPC and REST views;
   * past it the least recently used are dropped and fetched again when asked (and
   * deleted from `--db`). Default `LIMIT_DEFAULTS.forkHistoryLimit` (64 MiB).
   */
  historyLimit?: number
}

/**
 * The remote's block at the fork height, as the local chain's first: its native
 * header, raw hash, the BlockRoot tree's peaks over heights 0..its height, and its
 * bookkeepers' signatures. The chain makes it a block without transactions
 * (chain/block.ts `headerOnlyBlock`): the views answer its transactions from the remote.
 */
export interface ForkBlock {
  header: BlockHeader
  hash: Uint8Array
  peaks: Uint8Array[]
  signatures: Uint8Array[]
}

/** A connected fork: what the devnet takes from the remote. */
export interface ConnectedFork {
  /** The remote's values, fetched on first read. */
  source: ForkSource
  /** The remote's EIP-155 chain id (eth_chainId). */
  chainId: number
  /** The remote's net_version, as it answers it. */
  netVersion: string
  /** The remote's block at the fork height, as the local chain's first block. */
  block: ForkBlock
  /** The remote's web3_clientVersion. */
  clientVersion: string
  /** The remote's REST network id (get_networkid), with `restUrl`. */
  networkId: number | undefined
  /**
   * The timestamp of the remote's block 0 (Unix seconds): unbound-gas offsets count
   * from it on the node (1530316800, reference §4.2) and on a dualnet, so the fork's
   * `unboundGas` rule does too.
   */
  genesisTimestamp: number
  /** What a database keeps of this fork, so that resuming it needs no remote (see {@link resumeFork}). */
  stored: StoredFork
}

/**
 * A fork as a database keeps it (`--db`): the remote's URLs, what the fork took from it
 * when it started, and the fork block's header fields. Values fetched are kept beside
 * it (persistence/schema.ts FORK_VALUES_KEY).
 */
export interface StoredFork {
  url: string
  restUrl: string | null
  chainId: number
  netVersion: string
  networkId: number | null
  clientVersion: string
  /** The remote's block the chain starts from, as its eth block object has them. */
  block: RemoteBlock
  /** Timestamp of the remote's block 0 (see ConnectedFork); absent in a database of a dualnet before it was kept (the fork block's is taken then). */
  genesisTimestamp?: number
  /**
   * With REST: the fork block's REST Header object as JSON text, the frontier of the
   * BlockRoot tree at it (hex, largest subtree first) or `null`, and why there is none
   * (fork/blockTree.ts). Absent in a database written before they were fetched:
   * the fork block then has the eth fields only, as it had then.
   */
  nativeHeader?: string
  peaks?: string[] | null
  treeGap?: string | null
}

/**
 * The fork a database holds, ready to run without contacting the remote: its values
 * come from the remote only when one not fetched before is read. Throws
 * {@link ForkOptionError} when `options` ask for another remote or block than the
 * database's.
 */
export function resumeFork(stored: StoredFork, options: ForkOptions): ConnectedFork {
  const number = Number(BigInt(stored.block.number))
  if (options.url !== stored.url || (options.restUrl ?? null) !== stored.restUrl) {
    const held = stored.restUrl === null ? stored.url : `${stored.url} with REST ${stored.restUrl}`
    const [option, value, allowed] = options.url !== stored.url ? ['fork.url', options.url, stored.url] : ['fork.restUrl', options.restUrl, stored.restUrl ?? 'none']
    throw new ForkOptionError(option, value, `the database's, ${allowed} (or another database)`, { reason: `the database holds a fork of ${held}; refusing to mix them` })
  }
  if (options.blockNumber !== undefined && options.blockNumber !== number) {
    throw new ForkOptionError('fork.blockNumber', options.blockNumber, `the database's fork block, ${number}, or none (or another database)`, {
      reason: `the database holds a fork at block ${number}; refusing to mix them`,
    })
  }
  const remote = new RemoteNode(stored.url, options.remote, stored.restUrl ?? undefined)
  const source = new ForkSource(remote, number, stored.restUrl === null ? undefined : restNativeFetcher(remote))
  // History up to the fork block is the remote's, fetched when first asked for (rpc/forkPolicy.ts, rest/forkPolicy.ts).
  source.history = new RemoteHistory(remote, number, options.historyLimit)
  if (stored.restUrl !== null) source.restHistory = new RemoteRestHistory(remote, number, options.historyLimit)
  let tree: ForkBlockTree | undefined
  if (stored.nativeHeader !== undefined) {
    const { header, signatures } = headerFromRest(parseLosslessJson(stored.nativeHeader) as Record<string, unknown>)
    const peaks = stored.peaks?.map((p) => new Uint8Array(Buffer.from(p, 'hex')))
    tree = { header, signatures, headerJson: stored.nativeHeader, peaks, gap: stored.treeGap ?? undefined }
  }
  source.treeGap = treeGap(stored.restUrl !== null, tree, "the database was written before the fork fetched the remote's block tree")
  const block = forkBlock(stored.block, tree)
  const genesisTimestamp = stored.genesisTimestamp ?? block.header.timestamp
  return { source, chainId: stored.chainId, netVersion: stored.netVersion, block, clientVersion: stored.clientVersion, networkId: stored.networkId ?? undefined, genesisTimestamp, stored }
}

/**
 * Connects to the remote of `options` (checked: options/forkRules.ts `checkForkOptions`): its chain id, net_version, client version and
 * head; the fork block (checked against what the remote serves) and its header.
 * Throws {@link ForkOptionError} for a block the remote cannot serve, ForkRemoteError
 * when the remote does not answer.
 */
export async function connectFork(options: ForkOptions): Promise<ConnectedFork> {
  const remote = new RemoteNode(options.url, options.remote, options.restUrl)
  const calls: RemoteCall[] = [
    { method: 'eth_chainId', params: [] },
    { method: 'net_version', params: [] },
    { method: 'web3_clientVersion', params: [] },
    { method: 'eth_blockNumber', params: [] },
    { method: 'eth_getBlockByNumber', params: ['0x0', false] },
  ]
  const [answers, networkId] = await Promise.all([remote.batch(calls), options.restUrl === undefined ? undefined : remoteNetworkId(remote)])
  // Every answer checked to its type's range before anything is built of it (fork/remoteValues.ts).
  const from = (i: number): Answered => ({ url: remote.url, call: calls[i]! })
  const chainId = Number(remoteQuantity(answers[0], from(0), CHAIN_ID))
  const netVersion = remoteNetVersion(answers[1], from(1))
  const clientVersion = remoteText(answers[2], from(2), MAX_CLIENT_VERSION)
  // Without blockNumber the head is the fork block, a native block: its height must fit the header's u32.
  const head = remoteQuantity(answers[3], from(3), options.blockNumber === undefined ? NATIVE_HEIGHT : EVM_BLOCK_NUMBER)
  const genesis = answers[4] === null ? null : remoteBlock(answers[4], from(4), 0n)
  if (options.blockNumber !== undefined && BigInt(options.blockNumber) > NATIVE_HEIGHT.max) {
    throw new ForkOptionError('fork.blockNumber', options.blockNumber, `a block number from 0 to ${NATIVE_HEIGHT.max}`, { reason: `above ${NATIVE_HEIGHT.says}` })
  }
  let number = options.blockNumber ?? Number(head)
  const latestOnly = `the remote's latest block, ${head} (leave blockNumber out to fork at it)`
  if (BigInt(number) > head) throw new ForkOptionError('fork.blockNumber', number, `a block number from 0 to the remote's latest block, ${head}`, { reason: "above the remote's latest block" })
  if (BigInt(number) < head && options.restUrl !== undefined) {
    throw new ForkOptionError('fork.blockNumber', number, `${latestOnly}, or no restUrl to fork the EVM view only`, {
      reason: `with fork.restUrl the native state comes from the remote's REST interface, which answers its latest state only, so a fork with it cannot read state as of block ${number}`,
    })
  }
  if (BigInt(number) < head && clientVersion.startsWith('Ontology-')) {
    // Reference §6.2: the node answers eth_getBalance, eth_getStorageAt, eth_getCode
    // and eth_getTransactionCount for its latest state, whatever block is asked.
    throw new ForkOptionError('fork.blockNumber', number, latestOnly, {
      reason: `the remote (${clientVersion}) answers state for its latest block only, whatever block is asked, so a fork of it cannot read state as of block ${number}`,
    })
  }
  const blockCall: RemoteCall = { method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] }
  const answer = await remote.call(blockCall.method, blockCall.params)
  if (answer === null) throw new ForkOptionError('fork.blockNumber', number, `a block the remote holds, up to ${head}`, { reason: 'the remote has no such block' })
  const raw = remoteBlock(answer, { url: remote.url, call: blockCall }, BigInt(number))
  number = raw.height
  const source = new ForkSource(remote, number, options.restUrl === undefined ? undefined : restNativeFetcher(remote))
  // History up to the fork block is the remote's (rpc/forkPolicy.ts); its header is fetched already.
  source.history = new RemoteHistory(remote, number, options.historyLimit)
  source.history.seed(blockCall, answer)
  if (genesis !== null) source.history.seed(calls[4]!, answers[4])
  const cacheDir = options.cache ?? (options.blockNumber === undefined ? false : defaultForkCacheDir())
  if (options.restUrl !== undefined) source.restHistory = new RemoteRestHistory(remote, number, options.historyLimit)
  if (cacheDir !== false) {
    const meta = { url: options.url, restUrl: options.restUrl ?? null, chainId, blockNumber: number, blockHash: raw.hash }
    await attachForkCache(source, forkCacheFile(cacheDir, chainId, options.url, number, options.restUrl), meta)
  }
  // With REST, the fork block's native header and the remote's BlockRoot frontier (from the cache when it holds them).
  const tree = source.restHistory === undefined ? undefined : await remoteBlockTree(source.restHistory)
  source.treeGap = treeGap(options.restUrl !== undefined, tree)
  const block: RemoteBlock = { number: raw.number, hash: raw.hash, parentHash: raw.parentHash, timestamp: raw.timestamp }
  const genesisTimestamp = Number(BigInt((genesis ?? raw).timestamp))
  const stored: StoredFork = {
    url: options.url,
    restUrl: options.restUrl ?? null,
    chainId,
    netVersion,
    networkId: networkId ?? null,
    clientVersion,
    block,
    genesisTimestamp,
  }
  if (tree !== undefined) {
    stored.nativeHeader = tree.headerJson
    stored.peaks = tree.peaks === undefined ? null : peaksHex(tree.peaks)
    stored.treeGap = tree.gap ?? null
  }
  return { source, chainId, netVersion, block: forkBlock(block, tree), clientVersion, networkId, genesisTimestamp, stored }
}

/** The remote's REST network id (get_networkid), a u32. Throws ForkRemoteError when it answers none. */
async function remoteNetworkId(remote: RemoteNode): Promise<number> {
  const from: Answered = { url: remote.restUrl!, call: { method: 'GET /api/v1/networkid', params: [] } }
  const answer = await remote.rest('/api/v1/networkid')
  if (answer.Error !== 0) refuseAnswer(from, 'Error', answer.Error, 'is not 0: the remote has no network id')
  return remoteWholeNumber(answer.Result, from, NETWORK_ID, 'Result')
}

/**
 * Writes the dev accounts' balances over the fork at its block (as Anvil funds them):
 * each account's nonce and code stay the remote's, so that contracts they create get
 * fresh addresses. Fetches the accounts first (concurrently).
 */
export async function fundForkAccounts(world: WorldState, source: ForkSource, height: number, allocations: readonly { address: Uint8Array; main: bigint; gas: bigint }[]): Promise<void> {
  const addresses = allocations.map((a) => toHexRaw(a.address))
  await source.prefetch(addresses)
  for (const [i, a] of allocations.entries()) world.updateAccount(addresses[i]!, height, { main: a.main, gas: a.gas })
}

/** The fields of an eth block object the fork block needs (the remote's whole answer is kept as history). */
export interface RemoteBlock {
  number: string
  hash: string
  parentHash: string
  timestamp: string
}

const ZERO_32 = new Uint8Array(32)

/** Why local BlockRoots do not continue the remote's tree (ForkSource.treeGap), or `undefined` when they do. */
function treeGap(rest: boolean, tree: ForkBlockTree | undefined, unknown = "the fork block's tree is not known"): string | undefined {
  if (!rest) return "the fork has no REST URL of the remote (fork.restUrl, --fork-rest-url), so the remote's block tree below the fork block is not fetched"
  if (tree === undefined) return unknown
  return tree.peaks === undefined ? (tree.gap ?? unknown) : undefined
}

/**
 * The remote's block as the local chain's first: its number, hash, parent hash and
 * timestamp; with `tree` (a fork with REST) every field of its native header and
 * its signatures, and the frontier of the remote's BlockRoot tree as its peaks, so
 * that local blocks continue the tree. Without a frontier the native header fields
 * the eth view does not carry are zero or empty (without REST) and the BlockRoot of
 * later local blocks starts a new tree. It holds no transactions: the REST and
 * JSON-RPC views answer it from the remote.
 */
function forkBlock(raw: RemoteBlock, tree?: ForkBlockTree): ForkBlock {
  const height = Number(BigInt(raw.number))
  const header: BlockHeader = tree?.header ?? {
    version: 0,
    prevHash: hashBytes(raw.parentHash),
    transactionsRoot: ZERO_32,
    blockRoot: ZERO_32,
    timestamp: Number(BigInt(raw.timestamp)),
    height,
    consensusData: 0n,
    consensusPayload: new Uint8Array(0),
    nextBookkeeper: new Uint8Array(20),
    bookkeepers: [],
  }
  // The BlockRoot tree over heights 0..height has one peak per 1-bit of its size.
  let peakCount = 0
  for (let size = height + 1; size > 0; size = Math.floor(size / 2)) peakCount += size % 2
  return {
    header,
    hash: hashBytes(raw.hash),
    peaks: tree?.peaks ?? Array.from({ length: peakCount }, () => ZERO_32),
    signatures: tree?.signatures ?? [],
  }
}

function hashBytes(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hex)) throw new TypeError(`fork: the remote's block hash ${JSON.stringify(hex)} is not 32 bytes of hex`)
  return new Uint8Array(Buffer.from(hex.slice(2), 'hex'))
}
