/**
 * Mining: executing pooled transactions into new blocks, sealing blocks (header, hash,
 * lazily the bookkeeper signature), reserving runs of empty blocks and building them
 * on first use. Runs inside the chain's queue; the chain decides when to mine.
 */
import type { BlockEnvironment, EvmExecutor } from '../evm/executor.ts'
import type { BlockSettings } from './blockSettings.ts'
import type { ChainBlock } from './block.ts'
import { blockHash, type BlockHeader } from '../native/blockHeader.ts'
import { ZERO_ROOT, type BlockIndex } from './blockIndex.ts'
import { logsBloom } from './bloom.ts'
import type { Bookkeeper } from './bookkeeper.ts'
import type { Checkpoints } from './checkpoints.ts'
import type { Clock } from './clock.ts'
import { GWEI } from '../core/constants.ts'
import type { Mempool } from './mempool.ts'
import { appendLeaf, rootFromPeaks, transactionsRoot } from '../native/merkle.ts'
import { executeNativeTransaction, NATIVE_CALL_GAS } from './nativeExecution.ts'
import type { ExecutionRecord } from './record.ts'
import type { WorldState } from '../state/worldState.ts'
import type { ChainStore } from './chainStore.ts'
import type { ChainTransaction, PoolTransaction } from './transaction.ts'
import { printConsoleCalls, type ConsoleSink } from './consoleOutput.ts'
import type { UnboundGasRule } from '../native/unboundGas.ts'

/** What the miner works on: the chain's parts, shared with it. */
export interface MinerParts {
  world: WorldState
  executor: EvmExecutor
  mempool: Mempool
  clock: Clock
  bookkeeper: Bookkeeper
  store: ChainStore
  blocks: BlockIndex
  /** Trims the journal after each sealed block. */
  checkpoints: Checkpoints
  /** The block environment of the blocks to mine (the one-shot settings are used up by each). */
  settings: BlockSettings
  unboundGas?: UnboundGasRule | undefined
  /** Where console.log lines of mined transactions go; absent: the executor captures none. */
  console?: ConsoleSink | undefined
}

/** Builds the chain's blocks. */
export class Miner {
  readonly #world: WorldState
  readonly #executor: EvmExecutor
  readonly #mempool: Mempool
  readonly #clock: Clock
  readonly #bookkeeper: Bookkeeper
  /** The Bookkeepers list of every block this devnet mines: one array shared by all headers (never changed). */
  readonly #bookkeepers: Uint8Array[]
  readonly #store: ChainStore
  readonly #blocks: BlockIndex
  readonly #checkpoints: Checkpoints
  readonly #unboundGas: UnboundGasRule | undefined
  readonly #console: ConsoleSink | undefined
  readonly #settings: BlockSettings

  constructor(parts: MinerParts) {
    this.#settings = parts.settings
    this.#world = parts.world
    this.#executor = parts.executor
    this.#mempool = parts.mempool
    this.#clock = parts.clock
    this.#bookkeeper = parts.bookkeeper
    this.#bookkeepers = Object.freeze([parts.bookkeeper.publicKey]) as Uint8Array[]
    this.#store = parts.store
    this.#blocks = parts.blocks
    this.#checkpoints = parts.checkpoints
    this.#unboundGas = parts.unboundGas
    this.#console = parts.console
  }

  /** The latest block, built if it is pending. */
  latest(): ChainBlock {
    this.build(this.#blocks.height)
    return this.#blocks.top
  }

  /** Builds the pending empty blocks up to `height` and persists them. */
  build(height: number): void {
    if (height < this.#blocks.builtCount) return
    const built: ChainBlock[] = []
    while (this.#blocks.builtCount <= height) {
      const timestamp = this.#blocks.empty.shift()!
      built.push(this.#seal(this.#blocks.top, timestamp, EMPTY_TXS, EMPTY_RECORDS, 0n))
    }
    this.#store.persist()
  }

  /**
   * Mines `count` blocks, `interval` seconds apart when given, and persists them (see
   * `Chain.mine`). `continuing`: blocks of the same run were mined before (a run that a
   * fork's miss interrupted goes on: the first block here is then spaced by `interval`
   * from the last one). Over a fork a miss ends it with ForkMiss after the blocks mined so far.
   */
  async mine(count: number, interval: number | undefined, continuing = false): Promise<void> {
    if (this.#mempool.size === 0) return this.#reserveEmpty(count, interval, continuing)
    const nonceOf = (sender: string) => this.#world.getAccount(sender, this.#blocks.height).nonce
    for (let i = 0; i < count; i++) {
      const after = i > 0 || continuing
      if (this.#mempool.size === 0) {
        this.#store.persist()
        return this.#reserveEmpty(count - i, interval, after)
      }
      const timestamp = after && interval !== undefined ? this.latest().header.timestamp + interval : undefined
      // EIP-155 transactions first, then native ones by gas price (the solo node's order, §5.5).
      await this.mineBlock([...this.#mempool.executable(nonceOf), ...this.#mempool.nativeByPrice()], timestamp)
    }
    if (interval !== undefined && count > 0) this.#clock.setTime(Math.max(this.#clock.now(), this.latest().header.timestamp))
    this.#store.persist()
  }

  /** Mines, one block each, the transactions of `sender` that became executable. */
  async mineReady(sender: string): Promise<void> {
    for (;;) {
      const nonce = this.#world.getAccount(sender, this.#blocks.height).nonce
      const next = this.#mempool.bySenderNonce(sender, nonce)
      if (next === undefined) return
      await this.mineBlock([next])
      this.#store.persist()
    }
  }

  /**
   * Executes `txs` into a new block on top of the chain, stamped `timestamp` (default:
   * the clock's next). On any error nothing of the block remains. The caller persists.
   * Over a fork, a value not fetched yet undoes the block (as any error does) and, in a
   * job of the chain's queue, ends it with ForkMiss: the queue fetches the value outside
   * and runs the job again (queue.ts); a fixed next timestamp is used up only by the
   * block that is sealed.
   */
  async mineBlock(txs: readonly PoolTransaction[], timestamp?: number): Promise<ChainBlock> {
    const parent = this.latest()
    const height = parent.header.height + 1
    const time = timestamp ?? (this.#world.source === undefined ? this.#clock.timestampAfter(parent.header.timestamp) : this.#clock.peekAfter(parent.header.timestamp))
    const env = this.#settings.next()
    if (txs.length === 0) {
      if (timestamp === undefined && this.#world.source !== undefined) this.#clock.timestampAfter(parent.header.timestamp)
      return this.#sealIn(env, parent, time, EMPTY_TXS, EMPTY_RECORDS, 0n)
    }
    const journalPosition = this.#world.journal.position
    try {
      const records: ExecutionRecord[] = []
      let gasUsed = 0n
      let logCount = 0
      for (const tx of txs) {
        if (tx.kind === 'native') {
          const outcome = executeNativeTransaction(this.#world, tx, height, { timestamp: time, unbound: this.#unboundGas })
          records.push({
            state: outcome.state,
            gasUsed: NATIVE_CALL_GAS,
            gasConsumed: outcome.fee,
            cumulativeGasUsed: gasUsed,
            logs: [],
            firstLogIndex: logCount,
            contractAddress: undefined,
            returnValue: outcome.result,
            notify: outcome.notify,
          })
          continue
        }
        const outcome = await this.#executor.executeTransaction(tx.tx, { readHeight: height, number: height, timestamp: time, env })
        if (outcome.consoleCalls !== undefined && this.#console !== undefined) await printConsoleCalls(this.#console, outcome.consoleCalls)
        gasUsed += outcome.gasUsed
        records.push({
          state: outcome.status,
          gasUsed: outcome.gasUsed,
          gasConsumed: (tx.tx.gasPrice / GWEI) * outcome.gasUsed,
          cumulativeGasUsed: gasUsed,
          logs: outcome.logs,
          firstLogIndex: logCount,
          contractAddress: outcome.contractAddress,
          returnValue: outcome.returnValue,
          notify: [],
        })
        logCount += outcome.logs.length
      }
      // Over a fork the clock moves only now that the block is sure (the same timestamp).
      if (timestamp === undefined && this.#world.source !== undefined) this.#clock.timestampAfter(parent.header.timestamp)
      for (const tx of txs) {
        if (tx.kind === 'evm') this.#mempool.remove(tx)
        else this.#mempool.removeNative(tx)
      }
      return this.#sealIn(env, parent, time, [...txs], records, gasUsed)
    } catch (err) {
      this.#world.journal.revertTo(journalPosition)
      throw err
    }
  }

  /**
   * Records `count` empty blocks without building them: the first stamped by the
   * clock (or, `continuing` a run with an `interval`, the parent + interval), the rest
   * `interval` seconds apart (default: the clock's step, else 1 s, as hardhat_mine).
   * The clock then stands at least at the last one.
   */
  #reserveEmpty(count: number, interval: number | undefined, continuing: boolean): void {
    if (count <= 0) return
    const top = this.#blocks.empty.lastTimestamp() ?? this.#blocks.top.header.timestamp
    const first = continuing && interval !== undefined ? top + interval : this.#clock.timestampAfter(top)
    const spacing = interval ?? this.#clock.spacing ?? 1
    this.#blocks.empty.add({ start: this.#blocks.height + 1, count, first, interval: spacing })
    this.#blocks.markHead()
    this.#settings.blockMined()
    const last = first + (count - 1) * spacing
    if (last > this.#clock.now()) this.#clock.setTime(last)
    this.#store.persist()
  }

  /** {@link #seal} for a block mined in `env`, which it records; the one-shot settings are used up. */
  #sealIn(env: BlockEnvironment, parent: ChainBlock, timestamp: number, txs: ChainTransaction[], records: ExecutionRecord[], gasUsed: bigint): ChainBlock {
    const block = this.#seal(parent, timestamp, txs, records, gasUsed)
    block.env = env
    this.#blocks.markHead()
    this.#settings.blockMined()
    return block
  }

  /** Builds the header and hash of a block on `parent` and appends it (no execution, no I/O). */
  #seal(parent: ChainBlock, timestamp: number, txs: ChainTransaction[], records: ExecutionRecord[], gasUsed: bigint): ChainBlock {
    const height = parent.header.height + 1
    const txRoot = txs.length === 0 ? ZERO_ROOT : transactionsRoot(txs.map((tx) => tx.hash))
    const peaks = appendLeaf(parent.peaks, height, txRoot)
    const header: BlockHeader = {
      version: 0,
      prevHash: parent.hash,
      transactionsRoot: txRoot,
      blockRoot: rootFromPeaks(peaks),
      timestamp,
      height,
      // The solo node draws a random u64 (reference §5.5); the parent hash's first
      // 8 bytes are as unpredictable and keep identical runs identical.
      consensusData: new DataView(parent.hash.buffer, parent.hash.byteOffset, 8).getBigUint64(0, true),
      consensusPayload: EMPTY_BYTES,
      nextBookkeeper: this.#bookkeeper.address,
      bookkeepers: this.#bookkeepers,
    }
    const block = makeBlock(header, txs, records, peaks, gasUsed, this.#bookkeeper)
    this.#blocks.append(block)
    this.#checkpoints.trimJournal()
    return block
  }
}

const EMPTY_TXS: ChainTransaction[] = []
const EMPTY_RECORDS: ExecutionRecord[] = []
const EMPTY_BYTES = new Uint8Array(0)

/**
 * A block of the chain. A class rather than an object with closures: a devnet holds
 * every block it mined, and two closures with their context cost more per block than
 * the block's own fields (measured: ~180 bytes of 650 for an empty block).
 */
class MinedBlock implements ChainBlock {
  readonly header: BlockHeader
  readonly hash: Uint8Array
  readonly transactions: ChainTransaction[]
  readonly records: ExecutionRecord[]
  readonly peaks: Uint8Array[]
  readonly gasUsed: bigint
  env: BlockEnvironment | undefined
  readonly #bookkeeper: Bookkeeper | undefined
  #signatures: Uint8Array[] | undefined

  constructor(header: BlockHeader, transactions: ChainTransaction[], records: ExecutionRecord[], peaks: Uint8Array[], gasUsed: bigint, bookkeeper: Bookkeeper | undefined) {
    this.header = header
    this.hash = blockHash(header)
    this.transactions = transactions
    this.records = records
    this.peaks = peaks
    this.gasUsed = gasUsed
    this.env = undefined
    this.#bookkeeper = bookkeeper
  }

  logsBloom(): Uint8Array {
    return logsBloom(this, () => this.records.flatMap((r) => r.logs))
  }

  signatures(): Uint8Array[] {
    this.#signatures ??= this.#bookkeeper === undefined ? [] : [this.#bookkeeper.sign(this.hash)]
    return this.#signatures
  }
}

/** Assembles a block; its bookkeeper signature is computed on first use. */
export function makeBlock(header: BlockHeader, transactions: ChainTransaction[], records: ExecutionRecord[], peaks: Uint8Array[], gasUsed: bigint, bookkeeper: Bookkeeper | undefined): ChainBlock {
  return new MinedBlock(header, transactions, records, peaks, gasUsed, bookkeeper)
}
