/**
 * Replays for tracing (debug_traceTransaction, debug_traceCall, debug_traceBlock*): an execution on an
 * engine of its own over a {@link ReplayWorld}, an overlay on the world state as of
 * one height, so that nothing of the devnet changes (no state, no blocks, no pool,
 * no journal entries) and the devnet's EVM carries no tracer.
 *
 * A mined transaction is replayed on the state before its block with the EVM
 * transactions that precede it in the block executed first, at its block's number
 * and timestamp (go-ethereum's `traceTx` after `stateAtTransaction`).
 */
import type { BlockEnvironment, CallRequest, EvmExecutor, EvmWorld, ExecutionContext } from '../evm/executor.ts'
import type { EvmEngine } from '../evm/engine.ts'
import { CHAIN_BLOCK_ENVIRONMENT } from '../evm/execution.ts'
import { TraceTooLargeError, TraceUnavailableError, type TracePosition, type TraceState, type Tracer } from '../evm/tracing/tracer.ts'
import { EMPTY_ACCOUNT, type AccountRecord, type WorldState } from '../state/worldState.ts'
import type { IncludedTransaction, SimulationBlock } from './chainTypes.ts'
import type { ChainBlock } from './block.ts'
import type { BlockHeader } from '../native/blockHeader.ts'
import { toHex } from '../util/hex.ts'
import type { ForkSource } from '../fork/source.ts'
import type { LegacyTransaction } from '../evm/legacyTransaction.ts'
import { TransactionRejectedError } from '../core/errors.ts'
import { simulationFailure } from './executionErrors.ts'
import { ExecutionAbortedError, ExecutionTimeoutError, type ExecutionBudget } from '../evm/pacer.ts'
import type { SimulationOverrides, StateOverrides } from '../evm/overrides.ts'
import { applyStateOverrides, withBlockOverrides } from './overrides.ts'

const EMPTY = new Uint8Array(0)

/**
 * The world state as of `height`, with the writes of replayed executions held in an
 * overlay of its own. Heights passed by the state manager are ignored: every read
 * sees the base height plus the overlay.
 */
export class ReplayWorld implements EvmWorld {
  readonly #base: WorldState
  readonly #height: number
  /** Overlaid accounts; `undefined` records a deletion. */
  readonly #accounts = new Map<string, AccountRecord | undefined>()
  readonly #storage = new Map<string, Map<string, Uint8Array>>()
  /** Addresses whose base storage is hidden (cleared by a replayed execution). */
  readonly #cleared = new Set<string>()
  readonly #code = new Map<string, Uint8Array>()

  constructor(base: WorldState, height: number) {
    this.#base = base
    this.#height = height
  }

  getAccount(address: string): AccountRecord {
    if (this.#accounts.has(address)) return this.#accounts.get(address) ?? EMPTY_ACCOUNT
    return this.#base.getAccount(address, this.#height)
  }

  setAccount(address: string, record: AccountRecord | undefined): void {
    this.#accounts.set(address, record)
  }

  getStorage(address: string, slot: string): Uint8Array {
    const written = this.#storage.get(address)?.get(slot)
    if (written !== undefined) return written
    if (this.#cleared.has(address)) return EMPTY
    return this.#base.getStorage(address, slot, this.#height)
  }

  setStorage(address: string, slot: string, value: Uint8Array): void {
    let slots = this.#storage.get(address)
    if (slots === undefined) this.#storage.set(address, (slots = new Map()))
    slots.set(slot, value)
  }

  clearStorage(address: string): void {
    this.#storage.delete(address)
    this.#cleared.add(address)
  }

  getCodeByHash(codeHash: string | undefined): Uint8Array {
    if (codeHash === undefined) return EMPTY
    return this.#code.get(codeHash) ?? this.#base.getCodeByHash(codeHash)
  }

  /** Code the replay deploys stays in the overlay (the devnet's code registry is persisted). */
  putCode(codeHash: string, code: Uint8Array): void {
    if (this.#base.getCodeByHash(codeHash).length === 0) this.#code.set(codeHash, code)
  }
}

/** `world` as a tracer reads it (tracer.ts TraceState), in a block whose COINBASE is `coinbase`, for the execution at `position`; `committed`: whether the execution's writes land in it. */
function traceState(world: ReplayWorld, coinbase: Uint8Array, position: TracePosition, committed = true): TraceState {
  return {
    position,
    account: (address) => world.getAccount(address),
    storage: (address, slot) => world.getStorage(address, slot),
    code: (codeHash) => world.getCodeByHash(codeHash),
    coinbase,
    committed,
  }
}

/** What a replay reads of the chain (chain.ts `Chain` is one), named here so that replays do not import the chain they serve. */
export interface ReplayChain {
  readonly world: WorldState
  readonly executor: EvmExecutor
  readonly fork: ForkSource | undefined
  /** The included transaction with raw hash `hash` (64 hex), or `undefined`. */
  transaction(hash: string): IncludedTransaction | undefined
  /** The environment a simulation at `block` runs in. */
  simulationContext(block: SimulationBlock, kind: 'call' | 'estimate'): ExecutionContext
  /** The EVM block environment of block `height`. */
  blockEnvironment(height: number): BlockEnvironment
  /** The pool's transactions as the next block would run them. */
  pendingBlockTransactions(): LegacyTransaction[]
}

/**
 * When a replay must stop: `deadline` (performance.now() time, ms) and the error
 * thrown there (`timeout`, default {@link ExecutionTimeoutError} `execution timeout`).
 * The replay also stops, with {@link ExecutionAbortedError}, when the chain's
 * executor is aborted (`devnet.close()`).
 */
export type ReplayBudget = Pick<ExecutionBudget, 'deadline' | 'timeout'>

/** A replay's budget: `budget`'s deadline and time-out error, and the executor's abort signal (the devnet's close). */
export function budgetOf(chain: Pick<ReplayChain, 'executor'>, budget: ReplayBudget | undefined): ExecutionBudget {
  return { ...budget, signal: chain.executor.signal }
}

/** An engine of its own inside a mined block, its block's execution context, and the replay's budget. */
export interface BlockReplay {
  readonly engine: EvmEngine
  readonly ctx: ExecutionContext
  readonly budget: ExecutionBudget
}

/**
 * A replay inside `block`: an engine over `world` (an overlay of the state before the
 * block) at the block's number, timestamp and environment, with the block's transactions
 * before position `prefix.before` executed into `world` first (go-ethereum's
 * `stateAtTransaction`). Throws what `prefix.nativeError()` returns when one of those is
 * a native transaction, which the EVM replay cannot run; the budget's error past its
 * deadline, {@link ExecutionAbortedError} when the devnet closes.
 */
export async function replayInBlock(
  chain: ReplayChain,
  block: ReplayBlock,
  world: EvmWorld,
  limits: ReplayBudget | undefined,
  prefix?: { before: number; nativeError: () => Error },
): Promise<BlockReplay> {
  const height = block.header.height
  const engine = await chain.executor.replayEngine(world)
  const ctx: ExecutionContext = { readHeight: height, number: height, timestamp: block.header.timestamp, env: chain.blockEnvironment(height) }
  const budget = budgetOf(chain, limits)
  for (const earlier of block.transactions.slice(0, prefix?.before ?? 0)) {
    if (earlier.kind !== 'evm') throw prefix!.nativeError()
    await engine.executeTransaction(earlier.tx, ctx, budget)
  }
  return { engine, ctx, budget }
}

/**
 * Traces the included transaction with raw hash `hash` (64 hex, no 0x) with `tracer`
 * and resolves to the tracer's result. Throws {@link TraceUnavailableError} for a hash
 * not in a block, a native transaction (the EVM tracers have nothing to follow), or
 * one a native transaction precedes in its block; the budget's error past its
 * deadline, {@link ExecutionAbortedError} when the devnet closes.
 */
export async function traceTransaction(chain: ReplayChain, hash: string, tracer: Tracer, limits?: ReplayBudget): Promise<unknown> {
  const found = chain.transaction(hash)
  if (found === undefined) throw new TraceUnavailableError(`transaction 0x${hash} not found`)
  if (found.tx.kind !== 'evm') {
    throw new TraceUnavailableError(`transaction 0x${hash} is a native transaction: only EVM (EIP-155) transactions can be traced`)
  }
  const block = found.block
  const height = block.header.height
  const world = new ReplayWorld(chain.world, height - 1)
  const { engine, ctx, budget } = await replayInBlock(chain, block, world, limits, {
    before: found.index,
    nativeError: () => new TraceUnavailableError(`transaction 0x${hash} follows a native transaction in its block, which the EVM replay cannot run`),
  })
  const position: TracePosition = { blockHash: toHex(block.hash), blockNumber: height, transactionHash: toHex(found.tx.hash), transactionPosition: found.index }
  tracer.bind?.(traceState(world, (ctx.env ?? CHAIN_BLOCK_ENVIRONMENT).coinbase, position))
  const detach = tracer.attach(engine.events)
  let outcome
  try {
    outcome = await engine.executeTransaction(found.tx.tx, ctx, budget)
  } finally {
    detach()
  }
  return tracer.result(outcome, found.tx.tx.gasLimit)
}

/** One transaction's trace in a block's (go-ethereum eth/tracers/api.go `txTraceResult`): its hash, and its tracer's result or the error that stopped it. */
export type BlockTraceEntry = { txHash: `0x${string}`; result: unknown } | { txHash: `0x${string}`; error: string }

/**
 * A block as a block trace reads it: its hash, height and timestamp, and its
 * transactions. A {@link ChainBlock} is one; so is a block debug_traceBlock decodes
 * from its RLP, which the chain may not hold.
 */
export interface ReplayBlock {
  readonly hash: Uint8Array
  readonly header: Pick<BlockHeader, 'height' | 'timestamp'>
  readonly transactions: readonly ChainBlock['transactions'][number][]
}

/**
 * Traces every EVM transaction of `block` in order, each with a fresh tracer of
 * `makeTracer`, on the state before the block with the preceding ones executed
 * (go-ethereum's `traceBlock`). A native transaction has no EVM trace and is left out
 * (as eth_getBlockReceipts leaves it out); those after it cannot be replayed (the EVM
 * cannot run what it changed) and get `error`, as geth reports a transaction it could
 * not trace. The budget's error past its deadline, a tracer's size error and
 * {@link ExecutionAbortedError} stop the whole trace.
 */
export async function traceBlock(chain: ReplayChain, block: ReplayBlock, makeTracer: () => Tracer, limits?: ReplayBudget): Promise<BlockTraceEntry[]> {
  const height = block.header.height
  const world = new ReplayWorld(chain.world, height - 1)
  const { engine, ctx, budget } = await replayInBlock(chain, block, world, limits)
  const out: BlockTraceEntry[] = []
  let afterNative = false
  for (const [index, entry] of block.transactions.entries()) {
    if (entry.kind !== 'evm') {
      afterNative = true
      continue
    }
    const txHash = `0x${Buffer.from(entry.tx.hash).toString('hex')}` as const
    if (afterNative) {
      out.push({ txHash, error: 'transaction follows a native transaction in its block, which the EVM replay cannot run' })
      continue
    }
    const tracer = makeTracer()
    const position: TracePosition = { blockHash: toHex(block.hash), blockNumber: height, transactionHash: txHash, transactionPosition: index }
    tracer.bind?.(traceState(world, (ctx.env ?? CHAIN_BLOCK_ENVIRONMENT).coinbase, position))
    const detach = tracer.attach(engine.events)
    let outcome
    try {
      outcome = await engine.executeTransaction(entry.tx, ctx, budget)
    } finally {
      detach()
    }
    out.push({ txHash, result: tracer.result(outcome, entry.tx.gasLimit) })
  }
  return out
}

/**
 * An engine of its own over the state of `ctx.readHeight`, with `txs` (the EVM
 * transactions the pending block takes first) executed in `ctx` into its overlay, so
 * that simulations on it run after them, as in the block being mined. A transaction
 * that cannot run at all is left out, as it could not be mined. Then `overrides` (a
 * call's state override set) are written into the overlay and the engine's
 * precompiles (overrides.ts `applyStateOverrides`, EvmEngine.overridePrecompiles),
 * as go-ethereum applies them to the pending state; `world`: the overlay to use (a
 * tracer reading state reads it). Throws TransactionRejectedError for
 * a precompile move go-ethereum refuses.
 */
export async function pendingEngine(
  chain: Pick<ReplayChain, 'executor' | 'world' | 'fork'>,
  ctx: ExecutionContext,
  txs: readonly LegacyTransaction[],
  overrides?: StateOverrides,
  world: ReplayWorld = new ReplayWorld(chain.world, ctx.readHeight),
): Promise<EvmEngine> {
  const engine = await chain.executor.replayEngine(world)
  for (const tx of txs) await engine.executeTransaction(tx, ctx).catch(() => undefined)
  if (overrides !== undefined) {
    engine.overridePrecompiles(overrides)
    await applyStateOverrides(world, overrides, chain.fork)
  }
  return engine
}

/**
 * Traces `call` at `block` as eth_call runs it (the environment of
 * `chain.simulationContext(block, 'call')`: the chain's block context, or for
 * `'pending'` the next block, after the transactions waiting for it), under
 * `overrides` (debug_traceCall's `stateOverrides` and `blockOverrides`) when given, and
 * resolves to the tracer's result. Throws {@link TransactionRejectedError} when the call cannot
 * run at all (funds for `value`: `insufficient funds for transfer`, geth's text),
 * UnknownBlockError for a height above the tip; the budget's error past its
 * deadline, {@link ExecutionAbortedError} when the devnet closes.
 */
export async function traceCall(chain: ReplayChain, call: CallRequest, block: SimulationBlock, tracer: Tracer, limits?: ReplayBudget, overrides?: SimulationOverrides): Promise<unknown> {
  const env = chain.simulationContext(block, 'call')
  // The pending block's transactions run in its own environment; the block overrides are the call's alone.
  const world = new ReplayWorld(chain.world, env.readHeight)
  const engine = await pendingEngine(chain, env, block === 'pending' ? chain.pendingBlockTransactions() : [], overrides?.state, world)
  const ctx = overrides?.block === undefined ? env : withBlockOverrides(env, overrides.block)
  // A simulation's writes are dropped when it ends: no state after it to read.
  // go-ethereum's TraceCall context: the block's number, no hashes, index 0.
  const position: TracePosition = { blockHash: null, blockNumber: ctx.number, transactionHash: null, transactionPosition: 0 }
  tracer.bind?.(traceState(world, (ctx.env ?? CHAIN_BLOCK_ENVIRONMENT).coinbase, position, false))
  const detach = tracer.attach(engine.events)
  let outcome
  try {
    outcome = await engine.simulate(call, ctx, false, budgetOf(chain, limits))
  } catch (err) {
    // The budget's stops and a tracer's size limit are the trace's errors, not the call's.
    if (err instanceof ExecutionTimeoutError || err instanceof ExecutionAbortedError || err instanceof TraceTooLargeError) throw err
    throw new TransactionRejectedError(simulationFailure(err), { cause: err })
  } finally {
    detach()
  }
  // The top frame could not move `value`: geth refuses such a call before running it.
  if (outcome.error?.kind === 'insufficient balance') throw new TransactionRejectedError('insufficient funds for transfer')
  return tracer.result(outcome, call.gasLimit)
}
