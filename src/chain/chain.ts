/**
 * The chain: owner of the truth (architecture: chain/). Blocks, transactions, one
 * execution record per transaction, the mempool, the clock and the state, with no
 * knowledge of JSON or HTTP. Every operation that executes or changes state runs
 * through one queue (queue.ts), so executions never interleave; reads are synchronous
 * and see the latest sealed block (writes of a block being built carry a higher height).
 *
 * The Chain is the public face: it holds the parts (chainCore.ts), answers the reads,
 * and hands each other job to a module of its own: simulations (simulation.ts, with
 * eth_estimateGas's search in gasEstimation.ts), taking transactions in (intake.ts),
 * changes outside transactions (stateWrites.ts), mining and sealing (mining.ts),
 * snapshots (checkpoints.ts), the stored blocks (blockIndex.ts), the pool's checks
 * (poolAcceptance.ts) and the watchers (watchers.ts).
 */
import { toHexRaw } from '../util/hex.ts'
import type { BlockEnvironment, CallRequest, EvmExecutor, ExecutionContext, ExecutionOutcome } from '../evm/executor.ts'
import type { SimulationOverrides } from '../evm/overrides.ts'
import { decodeLegacyTransaction, type LegacyTransaction, type LegacyTransactionFields } from '../evm/legacyTransaction.ts'
import type { AccountRecord, WorldState } from '../state/worldState.ts'
import type { ForkSource } from '../fork/source.ts'
import type { ChainBlock } from './block.ts'
import { BlockIndex, ZERO_ROOT } from './blockIndex.ts'
import { BlockSettings } from './blockSettings.ts'
import type { Bookkeeper } from './bookkeeper.ts'
import { stateHeight, type ChainCore } from './chainCore.ts'
import type { BlockContext, ChainParts, ChainWatcher, IncludedTransaction, SimulationBlock } from './chainTypes.ts'
import { Checkpoints, type ChainCheckpoint } from './checkpoints.ts'
import type { Clock } from './clock.ts'
import type { ConsoleSink } from './consoleOutput.ts'
import * as intake from './intake.ts'
import { Mempool } from './mempool.ts'
import { Miner } from './mining.ts'
import type { NativeOutcome } from './nativeExecution.ts'
import { ChainQueue } from './queue.ts'
import * as simulation from './simulation.ts'
import * as stateWrites from './stateWrites.ts'
import { wrapEvmTransaction } from './transaction.ts'
import type { UnboundGasRule } from '../native/unboundGas.ts'
import { ChainWatchers } from './watchers.ts'
import type { TxPosition } from './addressIndex.ts'

export type { ChainCheckpoint } from './checkpoints.ts'
export type { BlockContext, ChainParts, ChainWatcher, IncludedTransaction, SimulationBlock } from './chainTypes.ts'
export { makeBlock } from './mining.ts'

/** Genesis ConsensusData of the real chain (reference §0). */
export const GENESIS_CONSENSUS_DATA = 2083236893n

export class Chain {
  readonly world: WorldState
  /** The fork under the world's state (its remote, history and caches), when this chain forks a remote node. */
  readonly fork: ForkSource | undefined
  readonly executor: EvmExecutor
  readonly mempool = new Mempool()
  /** COINBASE, GASLIMIT, BASEFEE and PREVRANDAO of blocks to come (the controls set them). */
  readonly blockSettings = new BlockSettings()
  readonly clock: Clock
  readonly bookkeeper: Bookkeeper
  /** Pool minimum gas price in whole gwei (option minGasPrice; anvil_setMinGasPrice changes it: {@link setMinGasPrice}). */
  get minGasPrice(): bigint {
    return this.#core.minGasPrice
  }
  /** Whether console.log lines reach the sink (anvil_setLoggingEnabled; a new chain starts with them on). */
  loggingEnabled = true
  /** Environment of calls and estimates at a block (see {@link BlockContext}). */
  readonly blockContext: BlockContext
  /** Unbound-gas accrual rule, or `undefined` (none, as on a solo node). */
  readonly unboundGas: UnboundGasRule | undefined
  /** The console.log sink, or `undefined` (silent). */
  readonly console: ConsoleSink | undefined
  /** Whether this chain was resumed from a database (false: a new genesis). */
  readonly resumed: boolean
  /** The parts the job modules share. */
  readonly #core: ChainCore

  constructor(parts: ChainParts) {
    this.world = parts.world
    this.fork = parts.fork
    this.executor = parts.executor
    this.bookkeeper = parts.bookkeeper
    this.clock = parts.clock
    this.blockContext = parts.blockContext ?? 'node'
    this.unboundGas = parts.unboundGas
    const sink = parts.console
    // Wrapped once, so that every user of the sink (miner, simulations) obeys loggingEnabled.
    this.console = sink === undefined ? undefined : (line) => (this.loggingEnabled ? sink(line) : undefined)
    const store = parts.store
    // A fork's first block is the remote's block it forks at: local heights continue from it.
    const blocks = new BlockIndex(parts.genesis.header.height)
    const shared = { world: this.world, fork: this.fork, mempool: this.mempool, clock: this.clock, blocks, store, settings: this.blockSettings }
    const checkpoints = new Checkpoints(shared)
    const miner = new Miner({ ...shared, executor: this.executor, bookkeeper: this.bookkeeper, checkpoints, unboundGas: this.unboundGas, console: this.console })
    blocks.append(parts.genesis)
    for (const block of parts.history?.blocks ?? []) blocks.append(block)
    for (const run of parts.history?.empty ?? []) blocks.empty.add(run)
    // Re-admitted in order without the pool's checks: they passed them when accepted,
    // and the pool held them whatever changed since; all must come back, as they were.
    for (const tx of parts.history?.pool ?? []) {
      if (tx.kind === 'evm') this.mempool.add(tx)
      else this.mempool.addNative(tx)
    }
    this.resumed = parts.history !== undefined
    if (parts.history?.settings !== undefined) this.blockSettings.restore(parts.history.settings)
    this.#core = {
      ...shared,
      executor: this.executor,
      checkpoints,
      miner,
      queue: new ChainQueue(this.world),
      watchers: new ChainWatchers(blocks.height),
      minGasPrice: parts.minGasPrice,
      blockContext: this.blockContext,
      unboundGas: this.unboundGas,
      console: this.console,
      automine: parts.automine,
    }
    store.bind({ world: this.world, fork: this.fork, blocks, clock: this.clock, mempool: this.mempool, settings: this.blockSettings })
  }

  /** Whether each accepted transaction is mined at once in its own block (set it with {@link setAutomine}, which mines what waits). */
  /** Sets the pool's minimum gas price (whole gwei) for transactions sent from now on; the pool's waiting ones stay. */
  setMinGasPrice(gwei: bigint): void {
    this.#core.minGasPrice = gwei
  }

  get automine(): boolean {
    return this.#core.automine
  }

  set automine(on: boolean) {
    this.#core.automine = on
  }

  // --- Reads: synchronous, on the latest sealed block or an older one.

  /**
   * Height of the chain's first block: 0, or on a fork the remote's block it forks at
   * (the blocks below it are the remote's history, not held here).
   */
  get firstHeight(): number {
    return this.#core.blocks.base
  }

  /** Height of the latest block (built or not yet built, see {@link EmptyRuns}). */
  get height(): number {
    return this.#core.blocks.height
  }

  /** Unix wall time (ms) when the head was mined, or the chain created (anvil_getLastBlockWallTime; blockIndex.ts). */
  get lastBlockWallTime(): number {
    return this.#core.blocks.headWallTime
  }

  /** The latest block. */
  get latest(): ChainBlock {
    return this.#core.miner.latest()
  }

  /** Block at `height`, or `undefined`. */
  blockAt(height: number): ChainBlock | undefined {
    if (!Number.isInteger(height) || height < 0 || height > this.height) return undefined
    this.#core.miner.build(height)
    return this.#core.blocks.built(height)
  }

  /** Timestamp of the block at `height` (must exist), without building it. */
  timestampAt(height: number): number {
    return this.#core.blocks.timestampAt(height)
  }

  /** TransactionsRoot of the block at `height` (must exist); zero for a pending empty block, without building it. */
  transactionsRootAt(height: number): Uint8Array {
    return this.isPendingEmpty(height) ? ZERO_ROOT : this.#core.blocks.built(height)!.header.transactionsRoot
  }

  /** Whether the block at `height` is an empty block not built yet (it has no transactions). */
  isPendingEmpty(height: number): boolean {
    return this.#core.blocks.isPendingEmpty(height)
  }

  /** Block with raw hash `hash` (64 hex, no 0x), or `undefined`. */
  blockByHash(hash: string): ChainBlock | undefined {
    const { blocks, miner } = this.#core
    const block = blocks.byHash(hash)
    if (block !== undefined || blocks.empty.count === 0) return block
    miner.build(this.height)
    return blocks.byHash(hash)
  }

  /** Raw hash of the block at `height` (BLOCKHASH). */
  blockHash(height: number): Uint8Array | undefined {
    return this.blockAt(height)?.hash
  }

  /** The included transaction with raw hash `hash` (64 hex, no 0x), or `undefined`. */
  transaction(hash: string): IncludedTransaction | undefined {
    const at = this.#core.blocks.locate(hash)
    if (at === undefined) return undefined
    const block = this.#core.blocks.built(at.height)!
    return { tx: block.transactions[at.index]!, block, index: at.index, record: block.records[at.index]! }
  }

  /** The included transactions touching `address` (40 hex, no 0x), oldest first (chain/addressIndex.ts says what touches). */
  transactionsTouching(address: string): TxPosition[] {
    return this.#core.blocks.addresses.positions(address)
  }

  /** The latest transaction whose top-level creation made the contract `address` (40 hex, no 0x), or `undefined`. */
  creationOf(address: string): TxPosition | undefined {
    return this.#core.blocks.addresses.creation(address)
  }

  /** The ledger record of `address` (20 bytes) as of block `height`. Throws {@link UnknownBlockError} above the tip. */
  account(address: Uint8Array, height: number = this.height): AccountRecord {
    return this.world.getAccount(toHexRaw(address), stateHeight(this.#core, height))
  }

  /** EVM code at `address` as of block `height`. */
  code(address: Uint8Array, height: number = this.height): Uint8Array {
    return this.world.getCodeByHash(this.account(address, height).codeHash)
  }

  /** Storage slot (32 bytes) of `address` as of block `height`: the stored bytes, empty when unset. */
  storage(address: Uint8Array, slot: Uint8Array, height: number = this.height): Uint8Array {
    return this.world.getStorage(toHexRaw(address), toHexRaw(slot), stateHeight(this.#core, height))
  }

  /** Raw hashes of the transactions accepted since the `from`-th one (0-based), and the new count. */
  acceptedSince(from: number): { hashes: Uint8Array[]; count: number } {
    return this.#core.watchers.acceptedSince(from)
  }

  /** Next nonce of `address` counting pending transactions (the `pending` tag, reference §6.2). */
  pendingNonce(address: Uint8Array): bigint {
    return intake.pendingNonce(this.#core, address)
  }

  // --- Taking transactions in (intake.ts).

  /**
   * Accepts a raw signed legacy transaction (eth_sendRawTransaction): stateless
   * checks, the pool's checks, then with automine the block(s) it enables. Resolves
   * to the transaction's raw hash. A transaction already on chain resolves to its
   * hash, as on the real node. Throws {@link TransactionRejectedError} with the
   * node's text; a rejected transaction changes nothing.
   */
  async submitRawTransaction(raw: Uint8Array): Promise<Uint8Array> {
    return this.submitTransaction(decodeLegacyTransaction(raw, this.executor.chainId))
  }

  /** {@link submitRawTransaction} for a transaction decoded already (with `decodeLegacyTransaction`). */
  submitTransaction(tx: LegacyTransaction): Promise<Uint8Array> {
    return intake.acceptEvm(this.#core, () => wrapEvmTransaction(tx))
  }

  /** Accepts a transaction of a dev account or an impersonated one (eth_sendTransaction); see intake.ts `submitFromAccount`. */
  submitFromAccount(fields: LegacyTransactionFields, from: Uint8Array, privateKey: Uint8Array | undefined, pendingNonce: boolean): Promise<Uint8Array> {
    return intake.submitFromAccount(this.#core, fields, from, privateKey, pendingNonce)
  }

  /** Accepts a raw native transaction (REST post_raw_tx); see intake.ts `submitNativeTransaction`. */
  submitNativeTransaction(raw: Uint8Array): Promise<Uint8Array> {
    return intake.submitNativeTransaction(this.#core, raw)
  }

  /** Pre-executes a raw native transaction (REST `preExec=1`); see intake.ts `preExecuteNativeTransaction`. */
  preExecuteNativeTransaction(raw: Uint8Array): Promise<NativeOutcome & { gas: bigint }> {
    return intake.preExecuteNativeTransaction(this.#core, raw)
  }

  /**
   * Mines `count` blocks; each takes every pending transaction executable at that
   * point (per sender in nonce order, senders by gas price). The first block is
   * stamped by the clock; with `interval` (seconds) each later one is its parent +
   * `interval`, as hardhat_mine does. Once the pool holds nothing, the remaining
   * (empty) blocks are reserved in O(1) and built when first needed.
   */
  async mine(count = 1, interval?: number): Promise<void> {
    const { queue, miner, watchers, store } = this.#core
    // Over a fork a miss ends the job after the blocks mined so far (queue.ts): it runs
    // again for the blocks still to mine, so none is mined twice.
    let mined = 0
    await queue.run(async () => {
      const from = this.height
      try {
        await miner.mine(count - mined, interval, mined > 0)
      } catch (err) {
        mined += this.height - from
        if (mined > 0) store.persist()
        throw err
      } finally {
        watchers.announce(this.height)
      }
    })
  }

  // --- Simulations (simulation.ts): nothing is committed.

  /** Simulates `call` at `block` (eth_call; default the latest block) under `overrides` if given (kept by nothing); see simulation.ts `call`. */
  call(call: CallRequest, block: SimulationBlock = this.height, overrides?: SimulationOverrides): Promise<Uint8Array> {
    return simulation.call(this.#core, call, block, overrides)
  }

  /** Runs `call` on the latest state without committing (REST `preExec=1`); see simulation.ts `preExecute`. */
  preExecute(call: CallRequest): Promise<ExecutionOutcome> {
    return simulation.preExecute(this.#core, call)
  }

  /** Gas limit sufficient for `call` at `block` (eth_estimateGas; default `'pending'`) under `overrides` if given; see simulation.ts `estimateGas`. */
  estimateGas(call: CallRequest, block: SimulationBlock = 'pending', overrides?: SimulationOverrides): Promise<bigint> {
    return simulation.estimateGas(this.#core, call, block, overrides)
  }

  /**
   * Timestamp the next block would get if it were mined now (Unix seconds): the one
   * evm_setNextBlockTimestamp fixed, else the parent + the step or interval, else
   * max(now, parent + 1). Reads the clock without moving it.
   */
  nextTimestamp(): number {
    return simulation.nextTimestamp(this.#core)
  }

  /** The environment a simulation at `block` runs in; see simulation.ts `simulationContext`. */
  simulationContext(block: SimulationBlock, kind: 'call' | 'estimate'): ExecutionContext {
    return simulation.simulationContext(this.#core, block, kind)
  }

  /** The EVM block environment of block `height`; see simulation.ts `blockEnvironment`. */
  blockEnvironment(height: number): BlockEnvironment {
    return simulation.blockEnvironment(this.#core, height)
  }

  /**
   * The EVM transactions the next block would take first: with transactions waiting
   * in the pool, the executable ones in mining order (per sender in nonce order,
   * senders by gas price); none otherwise.
   */
  pendingBlockTransactions(): LegacyTransaction[] {
    return simulation.pendingBlockTransactions(this.#core)
  }

  // --- Changes outside transactions (stateWrites.ts): persisted, undone by a restore.

  /** Changes the latest state of `address` outside any transaction; see stateWrites.ts `setAccount`. */
  setAccount(address: Uint8Array, change: { main?: bigint; gas?: bigint; nonce?: bigint; code?: Uint8Array }): Promise<void> {
    return stateWrites.setAccount(this.#core, address, change)
  }

  /** Sets storage slot `slot` (32 bytes) of `address` to `value` (32 bytes; all zero clears it) in the latest state. */
  setStorage(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return stateWrites.setStorage(this.#core, address, slot, value)
  }

  /** Writes state outside any transaction in one step of the queue; see stateWrites.ts `writeState`. */
  writeState(write: (world: WorldState, height: number) => void): Promise<void> {
    return stateWrites.writeState(this.#core, write)
  }

  /** Changes the block settings in the chain's queue; see stateWrites.ts `changeBlockSettings`. */
  changeBlockSettings(change: (settings: BlockSettings) => void): Promise<void> {
    return stateWrites.changeBlockSettings(this.#core, change)
  }

  /** Switches automine; turning it on mines what the pool holds that is executable, one block per transaction. */
  setAutomine(on: boolean): Promise<void> {
    return stateWrites.setAutomine(this.#core, on)
  }

  /** Removes pending transactions (hardhat_dropTransaction, Anvil's pool edits); see stateWrites.ts `dropPending`. */
  dropPending(which: { hashes?: readonly string[]; sender?: Uint8Array } = {}): Promise<string[]> {
    return stateWrites.dropPending(this.#core, which)
  }

  // --- Snapshots, watchers and lifecycle.

  /**
   * Captures everything observable (O(1) for state and blocks: a journal position and
   * a height; the pending pool is copied, O(pending)). The position stays pinned until
   * {@link release}.
   */
  capture(): Promise<ChainCheckpoint> {
    const { queue, checkpoints, watchers } = this.#core
    return queue.run(async () => checkpoints.capture(this.automine, watchers.acceptedCount))
  }

  /**
   * Returns the chain to `checkpoint`: undoes the state writes since (O(changes)),
   * drops the blocks above its height from both views (their transactions become
   * unknown), restores the pool, the clock, the block settings and the mining mode. The checkpoint stays
   * valid (and pinned) for further restores.
   */
  restore(checkpoint: ChainCheckpoint): Promise<void> {
    const { queue, checkpoints, watchers } = this.#core
    return queue.run(async () => {
      checkpoints.restore(checkpoint)
      this.automine = checkpoint.automine
      // Watchers continue from the restored head; the dropped blocks are not reported.
      watchers.rewind(checkpoint.accepted, this.height)
    })
  }

  /** Unpins a checkpoint that will not be restored again. */
  release(checkpoint: ChainCheckpoint): void {
    this.#core.checkpoints.release(checkpoint)
  }

  /**
   * Adds a watcher of committed blocks and accepted transactions; returns the
   * function that removes it. The first report covers the blocks after the current
   * head.
   */
  watch(watcher: ChainWatcher): () => void {
    return this.#core.watchers.add(watcher, this.height)
  }

  /**
   * Resolves once the work queued so far has run (a reset lets it finish on the old
   * chain), and retires the chain: work that waits on the fork remote outside the queue
   * (queue.ts) is refused when it comes back instead of applying to a chain that was
   * replaced. The devnet calls it on the chain a reset replaces, and nowhere else.
   */
  idle(): Promise<void> {
    this.#core.queue.retire()
    return this.#core.queue.idle()
  }

  /**
   * With a durable database and writes in flight: a promise that they are on disk
   * (rejecting if one failed); `undefined` otherwise. The surfaces await it before
   * answering, so an answered transaction hash or receipt survives a crash.
   */
  flushed(): Promise<void> | undefined {
    return this.#core.store.flushed()
  }

  /**
   * Writes the clock after a time control, with a durable database only (otherwise
   * the next batch or `close()` carries it), so that a moved clock survives a crash.
   */
  async saveClock(): Promise<void> {
    const { store, queue } = this.#core
    if (store.durable) await queue.run(async () => store.persist())
  }

  /** Waits for queued work, then closes the store (and writes a fork's disk cache). */
  async close(): Promise<void> {
    this.#core.queue.retire()
    await this.#core.queue.idle()
    await this.fork?.onClose?.()
    this.fork?.remote.close()
    await this.#core.store.close()
  }
}
