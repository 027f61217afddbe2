/**
 * Resuming a chain from its database: checking that the options asked for are the
 * ones that shaped it, then decoding every stored block (checked against its hash,
 * its TransactionsRoot and BlockRoot, and its parent) and writing every stored state
 * version back into a fresh world state, at the height it was written, and decoding
 * the transactions that were waiting in the pool (checked against their hashes).
 */
import type { ChainBlock } from '../chain/block.ts'
import { blockHash, type BlockHeader } from '../native/blockHeader.ts'
import type { Bookkeeper } from '../chain/bookkeeper.ts'
import type { ClockState } from '../chain/clock.ts'
import type { BlockSettingsState } from '../chain/blockSettings.ts'
import { decodeBlockSettings, decodeEnvironment } from './environment.ts'
import type { EmptyRun } from '../chain/emptyRuns.ts'
import { appendLeaf, rootFromPeaks, transactionsRoot } from '../native/merkle.ts'
import { makeBlock } from '../chain/mining.ts'
import type { LedgerStore, StoredLedger } from './store.ts'
import { wrapEvmTransaction, type ChainTransaction, type PoolTransaction } from '../chain/transaction.ts'
import type { WorldState } from '../state/worldState.ts'
import { bytesEqual, toHexRaw } from '../util/hex.ts'
import { decodeNativeTransaction, nativeTransactionHash } from '../native/transaction.ts'
import { ChainMismatchError, CorruptDatabaseError, PersistenceError } from './errors.ts'
import { decodeRecord, decodeStateValue, decodeStoredEvmTransaction, decodeUnsignedHeader, strictHex, type StoredBlock, type StoredConfig, type StoredTransaction } from './schema.ts'

/** A chain read back from its database, ready for `new Chain`. */
export interface ResumedChain {
  /** Block 0. */
  genesis: ChainBlock
  /** Built blocks from height 1 up. */
  blocks: ChainBlock[]
  /** Pending empty blocks above them. */
  empty: EmptyRun[]
  clock: ClockState
  /** The block settings of blocks to come; absent: the chain's own. */
  settings: BlockSettingsState | undefined
  config: StoredConfig
  /** The pool's transactions in the order they entered it. */
  pool: PoolTransaction[]
}

/**
 * Throws {@link ChainMismatchError} naming every chain-shaping option in which `wanted`
 * differs from the chain in the database (`stored`). `unboundGas` is compared only
 * when `wanted` has an opinion (`undefined`: take the stored one).
 */
export function checkConfig(stored: StoredConfig, wanted: Omit<StoredConfig, 'unboundGas' | 'fork'> & { unboundGas?: { deadline: number } | null; fork?: { url: string } }): void {
  const differences: string[] = []
  // Which remote: fork/connect.ts resumeFork compares the URLs of two forks.
  if ((stored.fork === undefined) !== (wanted.fork === undefined)) {
    differences.push(stored.fork === undefined ? `no fork (asked for a fork of ${wanted.fork!.url})` : `a fork of ${stored.fork.url} (asked for no fork)`)
  }
  if (stored.chainId !== wanted.chainId) differences.push(`chain id ${stored.chainId} (asked for ${wanted.chainId})`)
  if (stored.hardfork !== wanted.hardfork) differences.push(`hardfork ${stored.hardfork} (asked for ${wanted.hardfork})`)
  if (stored.bookkeeper !== wanted.bookkeeper) differences.push(`bookkeeper key 0x${stored.bookkeeper} (asked for 0x${wanted.bookkeeper})`)
  if (wanted.unboundGas !== undefined) {
    const describe = (rule: { deadline: number } | null) => (rule === null ? 'off' : `deadline ${rule.deadline}`)
    if (describe(stored.unboundGas) !== describe(wanted.unboundGas)) {
      differences.push(`unbound gas ${describe(stored.unboundGas)} (asked for ${describe(wanted.unboundGas)})`)
    }
  }
  if (differences.length > 0) {
    throw new ChainMismatchError(`the database holds a chain with ${differences.join(', ')}; refusing to mix them (use another database, or the same options)`)
  }
}

/**
 * Decodes `stored` into blocks and writes its state into `world` (fresh). Blocks are
 * signed by `bookkeeper` (the config check made sure it is the stored one). Throws
 * {@link CorruptDatabaseError} naming the first entry that does not decode or check.
 */
export async function resumeChain(stored: StoredLedger, world: WorldState, bookkeeper: Bookkeeper, forkBlock?: ChainBlock): Promise<ResumedChain> {
  const { tip } = stored
  // A forked chain starts at the remote's fork block (fork/connect.ts), rebuilt from the config, not decoded.
  const base = forkBlock?.header.height ?? 0
  if (stored.blocks.length === 0 || stored.blocks.length !== tip.built - base + 1) {
    throw new CorruptDatabaseError(`the database holds ${stored.blocks.length} blocks but its tip says ${tip.built - base + 1}`)
  }
  const bookkeepers = Object.freeze([bookkeeper.publicKey]) as Uint8Array[]
  const blocks: ChainBlock[] = []
  let parent: ChainBlock | undefined
  for (const [index, text] of stored.blocks.entries()) {
    const height = base + index
    if (index === 0 && forkBlock !== undefined) {
      parent = forkBlock
      blocks.push(parent)
      continue
    }
    try {
      parent = await decodeBlock(JSON.parse(text) as StoredBlock, height, parent, index === 0 ? [] : bookkeepers, bookkeeper)
    } catch (err) {
      if (err instanceof CorruptDatabaseError) throw err
      throw new CorruptDatabaseError(`block ${height} in the database is corrupt: ${(err as Error).message}`, { cause: err })
    }
    blocks.push(parent)
  }
  for (const [hash, hex] of stored.code) {
    try {
      world.putCode(hash, strictHex(hex))
    } catch (err) {
      throw new CorruptDatabaseError(`code ${hash} in the database is corrupt: ${(err as Error).message}`, { cause: err })
    }
  }
  for (const [kind, key, height, text] of stored.state) {
    try {
      world.loadVersion(kind, key, height, decodeStateValue(kind, text))
    } catch (err) {
      throw new CorruptDatabaseError(`the ${kind} entry ${key} at height ${height} in the database is corrupt: ${(err as Error).message}`, { cause: err })
    }
  }
  // Loading is not a change: nothing to undo, nothing to write back.
  world.journal.trimBefore(world.journal.position)
  world.clearTouches()
  const pool: PoolTransaction[] = []
  for (const [hash, text] of stored.pool) {
    try {
      const tx = await decodeTransaction(JSON.parse(text) as StoredTransaction)
      if (tx.kind === 'genesis') throw new Error('a genesis transaction is never pooled')
      if (toHexRaw(tx.hash) !== hash) throw new Error('it does not hash to its key')
      pool.push(tx)
    } catch (err) {
      throw new CorruptDatabaseError(`the pool transaction 0x${hash} in the database is corrupt: ${(err as Error).message}`, { cause: err })
    }
  }
  let settings: BlockSettingsState | undefined
  try {
    settings = tip.settings === undefined ? undefined : decodeBlockSettings(tip.settings)
  } catch (err) {
    throw new CorruptDatabaseError(`the block settings in the database's tip are corrupt: ${(err as Error).message}`, { cause: err })
  }
  return { genesis: blocks[0]!, blocks: blocks.slice(1), empty: tip.empty, clock: tip.clock, settings, config: stored.config, pool }
}

async function decodeBlock(stored: StoredBlock, height: number, parent: ChainBlock | undefined, bookkeepers: Uint8Array[], bookkeeper: Bookkeeper): Promise<ChainBlock> {
  const header: BlockHeader = decodeUnsignedHeader(strictHex(stored.header), bookkeepers)
  if (header.height !== height) throw new Error(`header height ${header.height}`)
  if (parent !== undefined && !bytesEqual(header.prevHash, parent.hash)) throw new Error('its parent hash is not the hash of the block below')
  const transactions = await Promise.all(stored.transactions.map(decodeTransaction))
  if (transactions.length !== stored.records.length) throw new Error('one execution record per transaction expected')
  const records = stored.records.map(decodeRecord)
  const txRoot = transactionsRoot(transactions.map((tx) => tx.hash))
  if (transactions.length > 0 && !bytesEqual(txRoot, header.transactionsRoot)) throw new Error('its transactions do not match its TransactionsRoot')
  const peaks = appendLeaf(parent?.peaks ?? [], height, header.transactionsRoot)
  if (parent !== undefined && !bytesEqual(rootFromPeaks(peaks), header.blockRoot)) throw new Error('its BlockRoot does not match the chain below')
  const hash = blockHash(header)
  if (toHexRaw(hash) !== stored.hash) throw new Error('its header does not hash to the stored hash')
  const gasUsed = records.length === 0 ? 0n : records.reduce((max, r) => (r.cumulativeGasUsed > max ? r.cumulativeGasUsed : max), 0n)
  const block = makeBlock(header, transactions, records, peaks, gasUsed, height === 0 ? undefined : bookkeeper)
  if (stored.env !== undefined) block.env = decodeEnvironment(stored.env)
  return block
}

async function decodeTransaction(stored: StoredTransaction): Promise<ChainTransaction> {
  if ('evm' in stored) return wrapEvmTransaction(decodeStoredEvmTransaction(strictHex(stored.evm), strictHex(stored.from)))
  if ('genesis' in stored) {
    const raw = strictHex(stored.genesis)
    const { tx } = decodeNativeTransaction(raw)
    return { kind: 'genesis', hash: nativeTransactionHash(tx), raw, tx, from: tx.payer, signers: [] }
  }
  const { prepareNativeTransaction } = await import('../chain/nativeIntake.ts')
  const raw = strictHex(stored.native)
  const { tx, length } = decodeNativeTransaction(raw)
  // Accepted once already: no pool rules, and the signers it was accepted with.
  const prepared = prepareNativeTransaction(tx, raw.subarray(0, length).slice(), 0n, false)
  return { ...prepared, signers: stored.signers.map(strictHex) }
}

/**
 * Reads the chain in `store`'s database, checks it against `wanted` and resumes it
 * into `world`; `undefined` when the database holds no chain. Throws as
 * {@link checkConfig} and {@link resumeChain} do, and for a database that holds a
 * chain when `loadingState` (a state document starts a new chain). Only once every
 * check has passed is the database accepted ({@link LedgerStore.accept}): a refused
 * `--db` directory is never opened by LevelDB, only its stand-in is.
 */
export async function openStoredChain(
  store: LedgerStore,
  world: WorldState,
  bookkeeper: Bookkeeper,
  wanted: Parameters<typeof checkConfig>[1] & { loadingState: boolean; forkBlock?: ChainBlock },
): Promise<ResumedChain | undefined> {
  const stored = await store.read()
  if (stored === undefined) {
    await store.accept()
    return undefined
  }
  checkConfig(stored.config, wanted)
  if (wanted.loadingState) throw new PersistenceError(`the database already holds a chain (height ${stored.tip.height}); a state document only starts a new one`)
  const resumed = await resumeChain(stored, world, bookkeeper, wanted.forkBlock)
  await store.accept()
  return resumed
}
