/**
 * The chain: owner of the truth (architecture: chain/). Blocks, transactions, one
 * execution record per transaction, the mempool, the clock and the state, with no
 * knowledge of JSON or HTTP. Every operation that executes or changes state runs
 * through one queue, so executions never interleave; reads are synchronous and see
 * the latest sealed block (writes of a block being built carry a higher height).
 *
 * The Chain is the public face and owns the queue; the jobs behind it are modules of
 * their own: the stored blocks (blockIndex.ts), the pool's checks (poolAcceptance.ts),
 * mining and sealing (mining.ts), snapshots (checkpoints.ts), the errors of failed
 * calls (executionErrors.ts), and eth_estimateGas's search (gasEstimation.ts).
 */
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'
import { CHAIN_BLOCK_ENVIRONMENT, type BlockEnvironment, type CallRequest, type EvmExecutor, type ExecutionContext, type ExecutionOutcome } from '../evm/executor.ts'
import { decodeLegacyTransaction, impersonatedTransaction, signLegacyTransaction, type LegacyTransaction, type LegacyTransactionFields } from '../evm/legacyTransaction.ts'
import type { ChainBlock } from './block.ts'
import { BlockIndex, ZERO_ROOT } from './blockIndex.ts'
import type { Bookkeeper } from './bookkeeper.ts'
import { Checkpoints, type ChainCheckpoint } from './checkpoints.ts'
import type { Clock } from './clock.ts'
import { BlockSettings, type BlockSettingsState } from './blockSettings.ts'
import { MIN_GAS_LIMIT } from '../core/constants.ts'
import { ExecutionFailedError, TransactionRejectedError, UnknownBlockError } from '../core/errors.ts'
import { executionError, simulationFailure } from './executionErrors.ts'
import { searchGasLimit } from './gasEstimation.ts'
import { Mempool } from './mempool.ts'
import { Miner } from './mining.ts'
import { printConsoleCalls, type ConsoleSink } from './consoleOutput.ts'
import { NATIVE_CALL_GAS, preExecuteNative, type NativeEnv, type NativeOutcome } from './nativeExecution.ts'
import { checkNativePool, checkPool } from './poolAcceptance.ts'
import type { ExecutionRecord } from './record.ts'
import type { AccountRecord, WorldState } from '../state/worldState.ts'
import { ForkMiss, retryOnForkMiss } from '../state/fork/forkSource.ts'
import { ForkRemoteError } from '../state/fork/remote.ts'
import type { LedgerStore } from './store.ts'
import type { EmptyRun } from './emptyRuns.ts'
import { wrapEvmTransaction, type ChainTransaction, type EvmTransaction, type PoolTransaction } from './transaction.ts'
import type { UnboundGasRule } from './unboundGas.ts'

export type { ChainCheckpoint } from './checkpoints.ts'
export { makeBlock } from './mining.ts'

/** Where an included transaction sits. */
export interface IncludedTransaction {
  tx: ChainTransaction
  block: ChainBlock
  index: number
  record: ExecutionRecord
}

/**
 * Which block environment calls, estimates and traced calls at a block run in (the
 * `blockContext` option):
 * - `'node'`: the real node's (reference §6.2): a call at block N reads N's state with
 *   NUMBER N and TIMESTAMP N's timestamp + 1; an estimate on N's state runs in the
 *   block a transaction sent then would land in, block N + 1.
 * - `'ethereum'`: go-ethereum's, Hardhat's and Anvil's: a call or an estimate at block
 *   N runs in N's own environment (its number and timestamp).
 *
 * In both, `'pending'` (and an estimate given no block) is the next block: the
 * latest state after the EVM transactions waiting for it, NUMBER height + 1,
 * TIMESTAMP what the clock will stamp it with.
 */
export type BlockContext = 'node' | 'ethereum'

/** The block a simulation targets: a height, or `'pending'` (the block a transaction sent now would land in). */
export type SimulationBlock = number | 'pending'

/** What {@link Chain} is built from; see createDevnet for how options become these. */
export interface ChainParts {
  world: WorldState
  executor: EvmExecutor
  store: LedgerStore
  bookkeeper: Bookkeeper
  genesis: ChainBlock
  clock: Clock
  automine: boolean
  /** Pool minimum gas price in gwei (solo: 0, reference §0). */
  minGasPrice: bigint
  /** Environment of calls and estimates at a block; default `'node'` (see {@link BlockContext}). */
  blockContext?: BlockContext
  /** Unbound-gas accrual; absent: none, as on a solo node (§4.2). */
  unboundGas?: UnboundGasRule
  /** Where console.log lines go (mined transactions, eth_call, failed eth_estimateGas); absent: silent. */
  console?: ConsoleSink
  /** A chain resumed from its database: the built blocks above genesis, the pending empty runs above them, the pool's transactions in the order they entered it, and the block settings of blocks to come. */
  history?: { blocks: readonly ChainBlock[]; empty: readonly EmptyRun[]; pool?: readonly PoolTransaction[]; settings?: BlockSettingsState | undefined }
}

/**
 * Something told about the chain's progress (push subscriptions). Called inside the
 * chain's queue, synchronously, so it sees the chain exactly as it was just
 * committed; it must not throw and must not wait on the chain.
 */
export interface ChainWatcher {
  /**
   * Blocks `from`..`to` (heights, inclusive) were committed. Bulk-mined empty blocks
   * are reported unbuilt: `blockAt(h)` builds one. After a restore the range starts
   * above the restored head (dropped blocks are not reported again).
   */
  blocks?(from: number, to: number): void
  /** A transaction (raw hash) entered the pool, before any block that includes it. */
  accepted?(hash: Uint8Array): void
}

/** Genesis ConsensusData of the real chain (reference §0). */
export const GENESIS_CONSENSUS_DATA = 2083236893n

export class Chain {
  readonly world: WorldState
  readonly executor: EvmExecutor
  readonly mempool = new Mempool()
  /** COINBASE, GASLIMIT, BASEFEE and PREVRANDAO of blocks to come (the controls set them). */
  readonly blockSettings = new BlockSettings()
  readonly clock: Clock
  readonly bookkeeper: Bookkeeper
  /** Whether each accepted transaction is mined at once in its own block. */
  automine: boolean
  readonly minGasPrice: bigint
  /** Environment of calls and estimates at a block (see {@link BlockContext}). */
  readonly blockContext: BlockContext
  /** Unbound-gas accrual rule, or `undefined` (none, as on a solo node). */
  readonly unboundGas: UnboundGasRule | undefined
  /** The console.log sink, or `undefined` (silent). */
  readonly console: ConsoleSink | undefined
  readonly #store: LedgerStore
  readonly #blocks: BlockIndex
  readonly #checkpoints: Checkpoints
  readonly #miner: Miner
  /** Raw hashes of accepted transactions in acceptance order (pending-transaction filters read it). */
  readonly #accepted: Uint8Array[] = []
  /** Push watchers; with none, mining pays one length check per job. */
  readonly #watchers: ChainWatcher[] = []
  /** Highest height the watchers were told about (or that passed while none watched). */
  #announced = 0
  #queue: Promise<unknown> = Promise.resolve()

  constructor(parts: ChainParts) {
    this.world = parts.world
    this.executor = parts.executor
    this.#store = parts.store
    this.bookkeeper = parts.bookkeeper
    this.clock = parts.clock
    this.automine = parts.automine
    this.minGasPrice = parts.minGasPrice
    this.blockContext = parts.blockContext ?? 'node'
    this.unboundGas = parts.unboundGas
    this.console = parts.console
    // A fork's first block is the remote's block it forks at: local heights continue from it.
    this.#blocks = new BlockIndex(parts.genesis.header.height)
    const shared = { world: this.world, mempool: this.mempool, clock: this.clock, blocks: this.#blocks, store: this.#store, settings: this.blockSettings }
    this.#checkpoints = new Checkpoints(shared)
    this.#miner = new Miner({ ...shared, executor: this.executor, bookkeeper: this.bookkeeper, checkpoints: this.#checkpoints, unboundGas: this.unboundGas, console: this.console })
    this.#blocks.append(parts.genesis)
    for (const block of parts.history?.blocks ?? []) this.#blocks.append(block)
    for (const run of parts.history?.empty ?? []) this.#blocks.empty.add(run)
    // Re-admitted in order without the pool's checks: they passed them when accepted,
    // and the pool held them whatever changed since; all must come back, as they were.
    for (const tx of parts.history?.pool ?? []) {
      if (tx.kind === 'evm') this.mempool.add(tx)
      else this.mempool.addNative(tx)
    }
    this.resumed = parts.history !== undefined
    this.#announced = this.#blocks.height
    if (parts.history?.settings !== undefined) this.blockSettings.restore(parts.history.settings)
    this.#store.bind({ world: this.world, blocks: this.#blocks, clock: this.clock, mempool: this.mempool, settings: this.blockSettings })
  }

  /** Whether this chain was resumed from a database (false: a new genesis). */
  readonly resumed: boolean

  /**
   * Height of the chain's first block: 0, or on a fork the remote's block it forks at
   * (the blocks below it are the remote's history, not held here).
   */
  get firstHeight(): number {
    return this.#blocks.base
  }

  /** Height of the latest block (built or not yet built, see {@link EmptyRuns}). */
  get height(): number {
    return this.#blocks.height
  }

  /** The latest block. */
  get latest(): ChainBlock {
    return this.#miner.latest()
  }

  /** Block at `height`, or `undefined`. */
  blockAt(height: number): ChainBlock | undefined {
    if (!Number.isInteger(height) || height < 0 || height > this.height) return undefined
    this.#miner.build(height)
    return this.#blocks.built(height)
  }

  /** Timestamp of the block at `height` (must exist), without building it. */
  timestampAt(height: number): number {
    return this.#blocks.timestampAt(height)
  }

  /** TransactionsRoot of the block at `height` (must exist); zero for a pending empty block, without building it. */
  transactionsRootAt(height: number): Uint8Array {
    return this.isPendingEmpty(height) ? ZERO_ROOT : this.#blocks.built(height)!.header.transactionsRoot
  }

  /** Whether the block at `height` is an empty block not built yet (it has no transactions). */
  isPendingEmpty(height: number): boolean {
    return this.#blocks.isPendingEmpty(height)
  }

  /** Block with raw hash `hash` (64 hex, no 0x), or `undefined`. */
  blockByHash(hash: string): ChainBlock | undefined {
    const block = this.#blocks.byHash(hash)
    if (block !== undefined || this.#blocks.empty.count === 0) return block
    this.#miner.build(this.height)
    return this.#blocks.byHash(hash)
  }

  /** Raw hash of the block at `height` (BLOCKHASH). */
  blockHash(height: number): Uint8Array | undefined {
    return this.blockAt(height)?.hash
  }

  /** The included transaction with raw hash `hash` (64 hex, no 0x), or `undefined`. */
  transaction(hash: string): IncludedTransaction | undefined {
    const at = this.#blocks.locate(hash)
    if (at === undefined) return undefined
    const block = this.#blocks.built(at.height)!
    return { tx: block.transactions[at.index]!, block, index: at.index, record: block.records[at.index]! }
  }

  /** The ledger record of `address` (20 bytes) as of block `height`. Throws {@link UnknownBlockError} above the tip. */
  account(address: Uint8Array, height: number = this.height): AccountRecord {
    return this.world.getAccount(toHexRaw(address), this.#stateHeight(height))
  }

  /** EVM code at `address` as of block `height`. */
  code(address: Uint8Array, height: number = this.height): Uint8Array {
    return this.world.getCodeByHash(this.account(address, height).codeHash)
  }

  /** Storage slot (32 bytes) of `address` as of block `height`: the stored bytes, empty when unset. */
  storage(address: Uint8Array, slot: Uint8Array, height: number = this.height): Uint8Array {
    return this.world.getStorage(toHexRaw(address), toHexRaw(slot), this.#stateHeight(height))
  }

  /** Raw hashes of the transactions accepted since the `from`-th one (0-based), and the new count. */
  acceptedSince(from: number): { hashes: Uint8Array[]; count: number } {
    return { hashes: this.#accepted.slice(from), count: this.#accepted.length }
  }

  /** Next nonce of `address` counting pending transactions (the `pending` tag, reference §6.2). */
  pendingNonce(address: Uint8Array): bigint {
    const sender = toHexRaw(address)
    return this.mempool.nextNonce(sender, this.world.getAccount(sender, this.height).nonce)
  }

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
    return this.#accept(() => wrapEvmTransaction(tx))
  }

  /**
   * Accepts a transaction of a dev account or an impersonated one (eth_sendTransaction):
   * signed with `privateKey` (`from`'s key: the sender is taken as `from`), or sent as `from` without its key when it is undefined
   * (impersonation, as Hardhat's hardhat_impersonateAccount: the transaction carries a
   * placeholder signature, r = the sender and s = 1, so that it has a hash and a raw
   * form; the pool's checks apply as usual). With `pendingNonce` the nonce is the pool's pending
   * nonce of `from`, taken in the same serial step that adds the transaction to the
   * pool, so that sends from one account that overlap (`Promise.all` of sends) get
   * consecutive nonces, as go-ethereum's eth_sendTransaction (which holds a lock per
   * sender from filling the nonce to adding to the pool) and Hardhat's give them.
   */
  submitFromAccount(fields: LegacyTransactionFields, from: Uint8Array, privateKey: Uint8Array | undefined, pendingNonce: boolean): Promise<Uint8Array> {
    return this.#accept(() => {
      const filled = pendingNonce ? { ...fields, nonce: this.pendingNonce(from) } : fields
      const { chainId } = this.executor
      return wrapEvmTransaction(privateKey === undefined ? impersonatedTransaction(filled, chainId, from) : signLegacyTransaction(filled, chainId, privateKey, from))
    })
  }

  /**
   * Accepts a raw native transaction (REST post_raw_tx): decoding (throws
   * InvalidTransactionError, 43001), the pool's checks in the node's order (gas limits,
   * a script the devnet executes, fee balance, pre-execution, duplicates, signatures),
   * then with automine its own block. Resolves to the raw hash. Throws
   * {@link TransactionRejectedError} carrying the node's REST code.
   */
  async submitNativeTransaction(raw: Uint8Array): Promise<Uint8Array> {
    const { decodeNativeTransaction, prepareNativeTransaction } = await loadNativeIntake()
    const { tx: decoded, length } = decodeNativeTransaction(raw)
    const tx = prepareNativeTransaction(decoded, raw.subarray(0, length).slice(), this.minGasPrice)
    return this.#serial(async () => {
      checkNativePool(tx, this.world, this.mempool, this.#blocks, this.height, this.#nativeEnv(this.timestampAt(this.height) + 1))
      this.mempool.addNative(tx)
      this.#noteAccepted(tx.hash)
      if (this.automine) {
        await this.#miner.mineBlock([tx])
        this.#store.persist()
        this.#announce()
      } else this.#store.persistPool()
      return tx.hash
    })
  }

  /**
   * Pre-executes a raw native transaction (REST `preExec=1`, §1.4.7) on the latest
   * state without committing: signatures and gas rules are not applied, as the node's
   * pre-execution does not apply them. Throws InvalidTransactionError or
   * {@link TransactionRejectedError} for a script the devnet does not execute.
   */
  async preExecuteNativeTransaction(raw: Uint8Array): Promise<NativeOutcome & { gas: bigint }> {
    const { decodeNativeTransaction, prepareNativeTransaction } = await loadNativeIntake()
    const { tx: decoded, length } = decodeNativeTransaction(raw)
    const tx = prepareNativeTransaction({ ...decoded, gasLimit: MIN_GAS_LIMIT, gasPrice: 0n }, raw.subarray(0, length), 0n, false)
    return this.#serial(async () => ({
      ...preExecuteNative(this.world, tx, this.height, this.#nativeEnv(this.timestampAt(this.height) + 1)),
      gas: NATIVE_CALL_GAS,
    }))
  }

  /** Runs the pool's checks on the transaction `make` builds (built inside the serial step) and adds it; mines it with automine. */
  #accept(make: () => EvmTransaction): Promise<Uint8Array> {
    return this.#serial(async () => {
      const tx = make()
      if (this.#blocks.includes(toHexRaw(tx.hash))) return tx.hash
      // Over a fork: the sender and the recipient, which the checks and the run read, fetched together.
      if (this.world.fork !== undefined) await this.world.fork.prefetch(touchedAccounts(tx.from, tx.tx.to))
      checkPool(tx, this.world, this.mempool, this.height, this.minGasPrice, this.blockSettings.next())
      this.mempool.add(tx)
      this.#noteAccepted(tx.hash)
      if (this.automine) {
        try {
          await this.#miner.mineReady(toHexRaw(tx.from))
        } catch (err) {
          // The remote of a fork failed while the block was built: the block is undone,
          // and the transaction leaves the pool, so the failed request changed nothing.
          if (err instanceof ForkRemoteError) this.mempool.remove(tx)
          throw err
        } finally {
          this.#announce()
        }
      }
      // Still waiting (automine off, or a nonce gap): the pool's entry is persisted.
      this.#store.persistPool()
      return tx.hash
    })
  }

  /**
   * Mines `count` blocks; each takes every pending transaction executable at that
   * point (per sender in nonce order, senders by gas price). The first block is
   * stamped by the clock; with `interval` (seconds) each later one is its parent +
   * `interval`, as hardhat_mine does. Once the pool holds nothing, the remaining
   * (empty) blocks are reserved in O(1) and built when first needed.
   */
  async mine(count = 1, interval?: number): Promise<void> {
    await this.#serial(async () => {
      try {
        await this.#miner.mine(count, interval)
      } finally {
        this.#announce()
      }
    })
  }

  /**
   * Simulates `call` at `block` (eth_call) in the environment {@link simulationContext}
   * gives: by default the latest block's under the chain's {@link BlockContext}.
   * Resolves to the return data. Throws {@link ExecutionFailedError} on revert or
   * another EVM error, {@link TransactionRejectedError} when it cannot run (e.g. funds
   * for `value`), {@link UnknownBlockError} for a height above the tip.
   */
  async call(call: CallRequest, block: SimulationBlock = this.height): Promise<Uint8Array> {
    const outcome = await this.#simulator(this.simulationContext(block, 'call'))(call)
    await this.#printConsole(outcome)
    if (outcome.status === 0) throw executionError(outcome)
    return outcome.returnValue
  }

  /**
   * Runs `call` on the latest state without committing (REST `preExec=1`) and resolves
   * to the outcome, failed or not; its logs end with the fee's Transfer log, as a mined
   * transaction's would (CallRequest.feeLog). Throws {@link TransactionRejectedError}
   * when it cannot run at all.
   */
  preExecute(call: CallRequest): Promise<ExecutionOutcome> {
    // The node's pre-execution: the latest state, NUMBER the height, TIMESTAMP + 1 (reference §6.2).
    const height = this.height
    return this.#simulator({ readHeight: height, number: height, timestamp: this.timestampAt(height) + 1, env: this.blockSettings.next() })({ ...call, feeLog: true })
  }

  /**
   * Timestamp the next block would get if it were mined now (Unix seconds): the one
   * evm_setNextBlockTimestamp fixed, else the parent + the step or interval, else
   * max(now, parent + 1). Reads the clock without moving it.
   */
  nextTimestamp(): number {
    return this.clock.peekAfter(this.timestampAt(this.height))
  }

  /**
   * The environment a simulation at `block` runs in (see {@link BlockContext}): the
   * height whose state it reads, NUMBER and TIMESTAMP. `'pending'`, and under
   * `'node'` an estimate on the latest state, is the next block ({@link nextTimestamp});
   * a height under `'ethereum'` is that block's own environment. Throws
   * {@link UnknownBlockError} for a height the chain does not have.
   */
  simulationContext(block: SimulationBlock, kind: 'call' | 'estimate'): ExecutionContext {
    const height = this.height
    if (block === 'pending' || (kind === 'estimate' && this.blockContext === 'node' && block === height)) {
      return { readHeight: height, number: height + 1, timestamp: this.nextTimestamp(), env: this.blockSettings.next() }
    }
    const at = this.#stateHeight(block)
    if (this.blockContext === 'ethereum') return { readHeight: at, number: at, timestamp: this.timestampAt(at), env: this.blockEnvironment(at) }
    // The node runs a call at the latest block as the block to come (TIMESTAMP + 1): the next block's environment.
    if (kind === 'call') return { readHeight: at, number: at, timestamp: this.timestampAt(at) + 1, env: at === height ? this.blockSettings.next() : this.blockEnvironment(at) }
    // An estimate on an older block's state: the block that followed it.
    return { readHeight: at, number: at + 1, timestamp: this.timestampAt(at + 1), env: this.blockEnvironment(at + 1) }
  }

  /**
   * The EVM block environment of block `height` (COINBASE, GASLIMIT, BASEFEE,
   * PREVRANDAO): the one it was mined in; for a block that recorded none (genesis, a
   * block of a reserved empty run, a block from an older database), the coinbase and
   * gas limit set now with the chain's base fee (0) and PREVRANDAO (0).
   */
  blockEnvironment(height: number): BlockEnvironment {
    const recorded = this.isPendingEmpty(height) ? undefined : this.#blocks.built(height)?.env
    if (recorded !== undefined) return recorded
    const { coinbase, gasLimit } = this.blockSettings
    return { ...CHAIN_BLOCK_ENVIRONMENT, coinbase, gasLimit }
  }

  /**
   * Gas limit sufficient for `call` at `block` (eth_estimateGas; default `'pending'`,
   * the block the transaction would land in), in the environment
   * {@link simulationContext} gives; the search is gasEstimation.ts's
   * {@link searchGasLimit}. Throws {@link ExecutionFailedError} when the call fails at
   * the cap, {@link UnknownBlockError} for a height above the tip.
   */
  async estimateGas(call: CallRequest, block: SimulationBlock = 'pending'): Promise<bigint> {
    // One environment for the whole search, fixed when the estimate is asked.
    const env = this.simulationContext(block, 'estimate')
    return searchGasLimit(call, env, {
      simulate: this.#simulator(env),
      balance: () => this.account(call.from, env.readHeight).gas,
      printConsole: (outcome) => this.#printConsole(outcome),
    })
  }

  /**
   * Captures everything observable (O(1) for state and blocks: a journal position and
   * a height; the pending pool is copied, O(pending)). The position stays pinned until
   * {@link release}.
   */
  capture(): Promise<ChainCheckpoint> {
    return this.#serial(async () => this.#checkpoints.capture(this.automine, this.#accepted.length))
  }

  /**
   * Returns the chain to `checkpoint`: undoes the state writes since (O(changes)),
   * drops the blocks above its height from both views (their transactions become
   * unknown), restores the pool, the clock, the block settings and the mining mode. The checkpoint stays
   * valid (and pinned) for further restores.
   */
  restore(checkpoint: ChainCheckpoint): Promise<void> {
    return this.#serial(async () => {
      this.#checkpoints.restore(checkpoint)
      this.automine = checkpoint.automine
      this.#accepted.length = Math.min(this.#accepted.length, checkpoint.accepted)
      // Watchers continue from the restored head; the dropped blocks are not reported.
      this.#announced = Math.min(this.#announced, this.height)
    })
  }

  /** Unpins a checkpoint that will not be restored again. */
  release(checkpoint: ChainCheckpoint): void {
    this.#checkpoints.release(checkpoint)
  }

  /**
   * Changes the latest state of `address` outside any transaction (the state setters:
   * balances of both tokens, nonce, code). Persisted; undone by restoring an earlier
   * checkpoint. `code` of zero length removes the code.
   */
  setAccount(address: Uint8Array, change: { main?: bigint; gas?: bigint; nonce?: bigint; code?: Uint8Array }): Promise<void> {
    return this.#serial(async () => {
      const key = toHexRaw(address)
      const fields: { -readonly [K in keyof AccountRecord]?: AccountRecord[K] } = {}
      if (change.main !== undefined) fields.main = change.main
      if (change.gas !== undefined) fields.gas = change.gas
      if (change.nonce !== undefined) fields.nonce = change.nonce
      if (change.code !== undefined) {
        if (change.code.length === 0) fields.codeHash = undefined
        else {
          const codeHash = toHexRaw(keccak256(change.code))
          this.world.putCode(codeHash, change.code)
          fields.codeHash = codeHash
        }
      }
      this.world.updateAccount(key, this.height, fields)
      this.#store.persist()
      this.#checkpoints.trimJournal()
    })
  }

  /** Sets storage slot `slot` (32 bytes) of `address` to `value` (32 bytes; all zero clears it) in the latest state. */
  setStorage(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.#serial(async () => {
      let i = 0
      while (i < value.length && value[i] === 0) i++
      this.world.setStorage(toHexRaw(address), toHexRaw(slot), value.subarray(i), this.height)
      this.#store.persist()
      this.#checkpoints.trimJournal()
    })
  }

  /**
   * Changes the block settings in the chain's queue, so that a block being mined
   * keeps the environment it started with (see {@link BlockSettings}); with a
   * durable database, writes them at once.
   */
  changeBlockSettings(change: (settings: BlockSettings) => void): Promise<void> {
    return this.#serial(async () => {
      change(this.blockSettings)
      // As a moved clock (saveClock): with a durable database the settings survive a crash.
      if (this.#store.durable) this.#store.persist()
    })
  }

  /** Switches automine; turning it on mines what the pool holds that is executable, one block per transaction. */
  setAutomine(on: boolean): Promise<void> {
    return this.#serial(async () => {
      this.automine = on
      if (!on) return
      try {
        for (const tx of this.mempool.executable((sender) => this.world.getAccount(sender, this.height).nonce)) {
          await this.#miner.mineReady(toHexRaw(tx.from))
        }
      } finally {
        this.#announce()
      }
    })
  }

  /**
   * Removes pending transactions (hardhat_dropTransaction and Anvil's pool edits):
   * with `hashes` (raw hex, no 0x) those of either kind; with `sender` (20 bytes)
   * every EVM transaction from it; with neither, the whole pool. A later
   * transaction of the same sender stays, waiting for the freed nonce. Resolves to
   * the raw hashes removed. Mined transactions are not touched.
   */
  dropPending(which: { hashes?: readonly string[]; sender?: Uint8Array } = {}): Promise<string[]> {
    return this.#serial(async () => {
      const dropped =
        which.hashes !== undefined ? which.hashes.filter((hash) => this.mempool.drop(hash)) : which.sender !== undefined ? this.mempool.dropSender(toHexRaw(which.sender)) : this.mempool.dropAll()
      this.#store.persistPool()
      return dropped
    })
  }

  /**
   * Adds a watcher of committed blocks and accepted transactions; returns the
   * function that removes it. The first report covers the blocks after the current
   * head.
   */
  watch(watcher: ChainWatcher): () => void {
    if (this.#watchers.length === 0) this.#announced = this.height
    this.#watchers.push(watcher)
    return () => {
      const at = this.#watchers.indexOf(watcher)
      if (at !== -1) this.#watchers.splice(at, 1)
    }
  }

  #noteAccepted(hash: Uint8Array): void {
    this.#accepted.push(hash)
    if (this.#watchers.length === 0) return
    for (const watcher of [...this.#watchers]) watcher.accepted?.(hash)
  }

  /** Tells the watchers about the blocks committed since the last report. */
  #announce(): void {
    const from = this.#announced + 1
    const to = this.height
    this.#announced = to
    if (this.#watchers.length === 0 || to < from) return
    for (const watcher of [...this.#watchers]) watcher.blocks?.(from, to)
  }

  /** Resolves once the work queued so far has run (a reset lets it finish on the old chain). */
  async idle(): Promise<void> {
    await this.#queue.catch(() => {})
  }

  /**
   * With a durable database and writes in flight: a promise that they are on disk
   * (rejecting if one failed); `undefined` otherwise. The surfaces await it before
   * answering, so an answered transaction hash or receipt survives a crash.
   */
  flushed(): Promise<void> | undefined {
    return this.#store.flushed()
  }

  /**
   * Writes state outside any transaction in one step of the queue (loading a state
   * document): `write` gets the world and the height to write at. Persisted as one
   * batch; if `write` throws, everything it wrote is undone and nothing persists.
   */
  writeState(write: (world: WorldState, height: number) => void): Promise<void> {
    return this.#serial(async () => {
      const position = this.world.journal.position
      try {
        write(this.world, this.height)
      } catch (err) {
        this.world.journal.revertTo(position)
        throw err
      }
      this.#store.persist()
      this.#checkpoints.trimJournal()
    })
  }

  /**
   * Writes the clock after a time control, with a durable database only (otherwise
   * the next batch or `close()` carries it), so that a moved clock survives a crash.
   */
  async saveClock(): Promise<void> {
    if (this.#store.durable) await this.#serial(async () => this.#store.persist())
  }

  /** Waits for queued work, then closes the store (and writes a fork's disk cache). */
  async close(): Promise<void> {
    await this.#queue.catch(() => {})
    await this.world.fork?.onClose?.()
    await this.#store.close()
  }

  /**
   * What runs the simulations of one request in `env`, each in the chain's queue: the
   * devnet's EVM; in the next block while EVM transactions wait for it (automine off),
   * an engine of its own on which they ran first (replay.ts `pendingEngine`, built by
   * the first simulation), as go-ethereum's, Hardhat's and Anvil's pending block holds
   * them. Native transactions in the pool are not applied. A call that cannot run at
   * all rejects with {@link TransactionRejectedError}.
   */
  #simulator(env: ExecutionContext): (call: CallRequest) => Promise<ExecutionOutcome> {
    const txs = env.readHeight === this.height && env.number === this.height + 1 ? this.pendingBlockTransactions() : []
    let pending: Promise<{ simulate: EvmExecutor['simulate'] }> | undefined
    return (call) =>
      this.#serial(async () => {
        if (this.world.fork !== undefined) await this.world.fork.prefetch(touchedAccounts(call.from, call.to))
        const runner = txs.length === 0 ? this.executor : await (pending ??= import('./replay.ts').then(({ pendingEngine }) => pendingEngine(this, env, txs)))
        try {
          return await runner.simulate(call, env)
        } catch (err) {
          if (err instanceof ForkMiss || err instanceof ForkRemoteError) throw err
          throw new TransactionRejectedError(simulationFailure(err), { cause: err })
        }
      })
  }

  /**
   * The EVM transactions the next block would take first: with transactions waiting
   * in the pool, the executable ones in mining order (per sender in nonce order,
   * senders by gas price); none otherwise.
   */
  pendingBlockTransactions(): LegacyTransaction[] {
    if (this.mempool.size === 0) return []
    return this.mempool.executable((sender) => this.world.getAccount(sender, this.height).nonce).map((pooled) => pooled.tx)
  }

  async #printConsole(outcome: ExecutionOutcome): Promise<void> {
    if (outcome.consoleCalls !== undefined && this.console !== undefined) await printConsoleCalls(this.console, outcome.consoleCalls)
  }

  #nativeEnv(timestamp: number): NativeEnv {
    return { timestamp, unbound: this.unboundGas }
  }

  #stateHeight(height: number): number {
    if (!Number.isInteger(height) || height < 0 || height > this.height) {
      throw new UnknownBlockError(`header for height ${height} not found (latest is ${this.height})`)
    }
    return height
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    // Over a fork, a job that read a value not fetched yet fetches it and starts again
    // (it threw before writing anything: reads come before writes in every job).
    const job = this.world.fork === undefined ? work : () => retryOnForkMiss(work)
    const run = this.#queue.then(job, job)
    this.#queue = run.catch(() => {})
    return run
  }
}

/** The accounts a transaction or call surely reads (its sender and recipient), as 40 hex each. */
function touchedAccounts(from: Uint8Array, to: Uint8Array | undefined): string[] {
  return to === undefined ? [toHexRaw(from)] : [toHexRaw(from), toHexRaw(to)]
}

let nativeIntake: Promise<typeof import('./nativeIntake.ts')> | undefined

/** The native-transaction intake (decoding, signature checks), loaded with the first native transaction. */
function loadNativeIntake(): Promise<typeof import('./nativeIntake.ts')> {
  nativeIntake ??= import('./nativeIntake.ts')
  return nativeIntake
}
