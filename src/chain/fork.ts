/**
 * Forking a live node: connecting to the remote, choosing the fork block, and the
 * block the local chain continues from (the remote's block at the fork height, with
 * its hash, so that local block `n + 1` names it as parent in both views).
 *
 * State comes from the remote lazily (state/fork/forkSource.ts); this module makes
 * the chain's first block and checks what the remote can serve.
 */
import type { BlockHeader, ChainBlock } from './block.ts'
import { ForkSource } from '../state/fork/forkSource.ts'
import { RemoteHistory } from '../state/fork/history.ts'
import { RemoteNode, type RemoteOptions } from '../state/fork/remote.ts'
import type { WorldState } from '../state/worldState.ts'
import { attachForkCache, defaultForkCacheDir, forkCacheFile } from './forkCache.ts'
import { toHexRaw } from '../util/hex.ts'

/** The `fork` option of createDevnet: the remote node to fork and where. */
export interface ForkOptions {
  /** JSON-RPC URL of the remote node (http or https), e.g. `http://127.0.0.1:20339`. */
  url: string
  /**
   * Block to fork at; default the remote's latest. A past block needs a remote that
   * serves state at past blocks (an archive node, Anvil, another dualnet): the real
   * node answers its latest state whatever block is asked, so with it (detected by
   * web3_clientVersion `Ontology-…`) a past block is refused.
   */
  blockNumber?: number
  /**
   * Directory of the disk cache of fetched values (chain/forkCache.ts), or `false` for
   * none. Default: with `blockNumber`, `$XDG_CACHE_HOME/dualnet/fork` (else
   * `~/.cache/dualnet/fork`); without it (the remote's latest block, a different block
   * each run) none.
   */
  cache?: string | false
  /** Time-out and retries of remote calls (see RemoteOptions). */
  remote?: RemoteOptions
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
  block: ChainBlock
  /** The remote's web3_clientVersion. */
  clientVersion: string
}

/** The option `fork` is malformed, or the remote cannot be forked where asked. */
export class ForkOptionError extends RangeError {
  override name = 'ForkOptionError'
}

/**
 * Checks the `fork` option's shape; throws {@link ForkOptionError} naming the field.
 * (No I/O: the remote is contacted by {@link connectFork}.)
 */
export function checkForkOptions(fork: unknown): asserts fork is ForkOptions {
  if (typeof fork !== 'object' || fork === null || Array.isArray(fork)) throw new ForkOptionError(`option fork must be an object { url, blockNumber? }, got ${JSON.stringify(fork)}`)
  const { url, blockNumber, cache } = fork as Record<string, unknown>
  if (cache !== undefined && cache !== false && (typeof cache !== 'string' || cache === '')) {
    throw new ForkOptionError(`option fork.cache must be a directory or false, got ${JSON.stringify(cache)}`)
  }
  let parsed: URL | undefined
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ForkOptionError(`option fork.url must be an http(s) URL of a JSON-RPC node, got ${JSON.stringify(url)}`)
  }
  if (blockNumber !== undefined && (typeof blockNumber !== 'number' || !Number.isSafeInteger(blockNumber) || blockNumber < 0)) {
    throw new ForkOptionError(`option fork.blockNumber must be a whole block number of 0 or more, got ${JSON.stringify(blockNumber)}`)
  }
}

/**
 * Connects to the remote of `options`: its chain id, net_version, client version and
 * head; the fork block (checked against what the remote serves) and its header.
 * Throws {@link ForkOptionError} for a block the remote cannot serve, ForkRemoteError
 * when the remote does not answer.
 */
export async function connectFork(options: ForkOptions): Promise<ConnectedFork> {
  checkForkOptions(options)
  const remote = new RemoteNode(options.url, options.remote)
  const [chainIdHex, netVersion, clientVersion, headHex] = (await remote.batch([
    { method: 'eth_chainId', params: [] },
    { method: 'net_version', params: [] },
    { method: 'web3_clientVersion', params: [] },
    { method: 'eth_blockNumber', params: [] },
  ])) as [string, string, string, string]
  const head = Number(BigInt(headHex))
  let number = options.blockNumber ?? head
  if (number > head) throw new ForkOptionError(`option fork.blockNumber ${number} is above the remote's latest block ${head}`)
  if (number < head && String(clientVersion).startsWith('Ontology-')) {
    // Reference §6.2: the node answers eth_getBalance, eth_getStorageAt, eth_getCode
    // and eth_getTransactionCount for its latest state, whatever block is asked.
    throw new ForkOptionError(
      `option fork.blockNumber ${number}: the remote (${clientVersion}) answers state for its latest block only, whatever block is asked, so a fork of it cannot read state as of block ${number}; leave blockNumber out to fork at its latest block (${head})`,
    )
  }
  const raw = (await remote.call('eth_getBlockByNumber', [`0x${number.toString(16)}`, false])) as RemoteBlock | null
  if (raw === null) throw new ForkOptionError(`option fork.blockNumber ${number}: the remote has no such block`)
  number = Number(BigInt(raw.number))
  const chainId = Number(BigInt(chainIdHex))
  const source = new ForkSource(remote, number)
  // History up to the fork block is the remote's (rpc/forkHistory.ts); its header is fetched already.
  source.history = new RemoteHistory(remote, number)
  source.history.seed({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] }, raw)
  const cacheDir = options.cache ?? (options.blockNumber === undefined ? false : defaultForkCacheDir())
  if (cacheDir !== false) {
    await attachForkCache(source, forkCacheFile(cacheDir, chainId, options.url, number), { url: options.url, chainId, blockNumber: number, blockHash: raw.hash })
  }
  return { source, chainId, netVersion: String(netVersion), block: forkBlock(raw), clientVersion: String(clientVersion) }
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
interface RemoteBlock {
  number: string
  hash: string
  parentHash: string
  timestamp: string
}

const ZERO_32 = new Uint8Array(32)

/**
 * The remote's block as the local chain's first: its number, hash, parent hash and
 * timestamp. Its native header fields the eth view does not carry (TransactionsRoot,
 * BlockRoot, ConsensusData, bookkeepers) are zero or empty here, and it holds no
 * transactions; the BlockRoot of later local blocks starts a new tree (the remote's
 * Merkle frontier is not fetched).
 */
function forkBlock(raw: RemoteBlock): ChainBlock {
  const height = Number(BigInt(raw.number))
  const header: BlockHeader = {
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
    transactions: [],
    records: [],
    peaks: Array.from({ length: peakCount }, () => ZERO_32),
    gasUsed: 0n,
    logsBloom: () => new Uint8Array(256),
    signatures: () => [],
  }
}

function hashBytes(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hex)) throw new TypeError(`fork: the remote's block hash ${JSON.stringify(hex)} is not 32 bytes of hex`)
  return new Uint8Array(Buffer.from(hex.slice(2), 'hex'))
}
