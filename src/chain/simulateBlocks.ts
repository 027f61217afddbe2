/**
 * Multi-block simulation (eth_simulateV1, execution-apis `eth_simulateV1`; behaviour
 * as go-ethereum's internal/ethapi/simulate.go): blocks of calls run one after another
 * on one overlay of a block's state, on an engine of their own, each call a transaction
 * whose writes the next call and the next block see. Nothing outlives the request: the
 * overlay (replay.ts `ReplayWorld`) and its engine are dropped when it ends, and the
 * devnet's state, engine, blocks and pool are never written.
 *
 * The chain's rules hold: every call is a legacy transaction (whole-gwei price, u32
 * nonce: legacyTransaction.ts), within the 6,000,000 gas cap per transaction, its fee
 * paid to governance with the gas-token Transfer log last (reference §6.4, §6.5).
 */
import { EVM_TX_GAS_CAP } from '../core/constants.ts'
import type { BlockEnvironment, ExecutionContext, ExecutionOutcome } from '../evm/executor.ts'
import { CHAIN_BLOCK_ENVIRONMENT } from '../evm/execution.ts'
import { impersonatedTransaction, type LegacyTransaction } from '../evm/legacyTransaction.ts'
import type { BlockOverrides, StateOverrides } from '../evm/overrides.ts'
import type { ReplayBudget, ReplayChain } from './replay.ts'
import { ReplayWorld, budgetOf, pendingEngine } from './replay.ts'
import { applyStateOverrides, withBlockOverrides } from './overrides.ts'
import { keccak256 } from '../util/hash.ts'
import { toHexRaw } from '../util/hex.ts'
import type { SimulationBlock } from './chainTypes.ts'
import type { ChainBlock } from './block.ts'
import type { Tracer } from '../evm/tracing/tracer.ts'
import { ForkMiss } from '../fork/miss.ts'
import type { AccountRecord } from '../state/worldState.ts'

/** go-ethereum's `timestampIncrement`: seconds between simulated blocks whose time is not overridden. */
export const SIMULATED_BLOCK_TIME = 12n
/** go-ethereum's `maxSimulateBlocks`: most blocks one simulation spans, the gaps it fills included. */
export const MAX_SIMULATED_BLOCKS = 256

/** The execution-apis error codes of eth_simulateV1 (go-ethereum internal/ethapi/errors.go). */
export const SimulateErrorCode = {
  NonceTooLow: -38010,
  NonceTooHigh: -38011,
  BaseFeeTooLow: -38012,
  IntrinsicGas: -38013,
  InsufficientFunds: -38014,
  BlockGasLimitReached: -38015,
  BlockNumberInvalid: -38020,
  BlockTimestampInvalid: -38021,
  SenderIsNotEOA: -38024,
  ClientLimitExceeded: -38026,
} as const

/** One call of a block: a transaction's fields, each absent one filled as go-ethereum fills it. */
export interface SimulatedCallInput {
  readonly from?: Uint8Array
  readonly to?: Uint8Array
  /** Default: the gas left in the block, at most the chain's cap. */
  readonly gas?: bigint
  /** Wei per gas; default 0. */
  readonly gasPrice?: bigint
  readonly value?: bigint
  readonly data?: Uint8Array
  /** Default: the sender's nonce in the simulation's state. */
  readonly nonce?: bigint
}

/** One of `blockStateCalls`: the block's overrides, the state set before its calls, its calls. */
export interface SimulatedBlockInput {
  readonly block?: BlockOverrides
  readonly state?: StateOverrides
  readonly calls: readonly SimulatedCallInput[]
}

/** A call as it ran: the transaction made of it (placeholder signature, sender as given) and its outcome. */
export interface SimulatedCall {
  readonly tx: LegacyTransaction
  readonly outcome: ExecutionOutcome
  /** The result of the tracer {@link SimulationOptions.tracer} gave this call, if any. */
  readonly trace?: unknown
}

/** How a simulation runs (see {@link simulateBlocks}). */
export interface SimulationOptions {
  /** eth_simulateV1's `validation`. */
  readonly validation: boolean
  /** The chain id the calls' transactions are made for (their hashes). */
  readonly chainId: bigint
  /**
   * Erigon's eth_callMany / trace_callMany: every block runs in the environment of an
   * eth_call at the base block (its number and time) unless overridden, with no
   * order checks and no gaps filled.
   */
  readonly sameBlock?: boolean
  /**
   * Erigon's `transactionIndex` (eth_callMany's state context): run on the state before
   * block `at` with its first this-many transactions applied, in that block's own
   * environment. Needs `at` to be a height.
   */
  readonly transactionIndex?: number
  /** A tracer for call `call` of block `block`, attached for its run; its result is kept on the call. */
  readonly tracer?: (block: number, call: number) => Tracer | undefined
}

/** A simulated block: its header fields (the hash a digest of parent, number, time and transactions) and its calls. */
export interface SimulatedBlock {
  readonly number: bigint
  readonly timestamp: bigint
  readonly parentHash: Uint8Array
  readonly hash: Uint8Array
  readonly env: BlockEnvironment
  /** The block's gas limit: the GASLIMIT its calls read (the chain's block environment, or the override). */
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  readonly calls: readonly SimulatedCall[]
}

/** What a simulation refused, with the execution-apis code; nothing ran past it. */
export interface SimulationRefusal {
  readonly code: number
  readonly message: string
}

/** What a simulation reads of the chain: a replay's reads, and its blocks' times and hashes. */
export interface SimulationChain extends ReplayChain {
  readonly height: number
  timestampAt(height: number): number
  blockHash(height: number): Uint8Array | undefined
  blockAt(height: number): ChainBlock | undefined
}

/**
 * Runs `blocks` on the state of `at` (`'pending'`: the latest, after the pool's EVM
 * transactions): block i is number base + i + 1 and base time + 12 × (i + 1) unless
 * overridden; a number ahead of the next one fills the gap with empty blocks, as
 * go-ethereum does. Per block the state overrides are written first, then each call
 * runs as a legacy transaction from `from` (default the zero address). With
 * `validation`, a given nonce must be the sender's, the sender must have no code, the
 * price must cover an overridden base fee and the gas limits must fit the block's and
 * the chain's 6,000,000 per transaction; without, a given nonce is not checked (the
 * sender's is used) and a gas limit above the cap is capped, as eth_call caps it. Either way the sender
 * pays gas × price + value (-38014) and the gas covers the intrinsic cost (-38013).
 * Resolves to the blocks, or to the refusal that stopped it. Throws the budget's error
 * past its deadline, TransactionRejectedError for a field the chain cannot take (a
 * price not in whole gwei, a nonce beyond u32) or a precompile move go-ethereum refuses.
 */
export async function simulateBlocks(
  chain: SimulationChain,
  at: SimulationBlock,
  blocks: readonly SimulatedBlockInput[],
  options: SimulationOptions,
  limits?: ReplayBudget,
): Promise<{ blocks: SimulatedBlock[] } | { refused: SimulationRefusal }> {
  const { validation, chainId, sameBlock = false } = options
  const prefix = options.transactionIndex === undefined || at === 'pending' ? undefined : blockPrefix(chain, at, options.transactionIndex)
  if (prefix !== undefined && 'refused' in prefix) return prefix
  const base = prefix?.ctx ?? chain.simulationContext(at, 'call')
  // A prefix of block `at` runs on the state before it; otherwise the state of `at` (pending: after the pool's transactions).
  const world = new ReplayWorld(chain.world, prefix === undefined ? base.readHeight : base.readHeight - 1)
  const engine = await pendingEngine(chain, base, prefix?.txs ?? (at === 'pending' ? chain.pendingBlockTransactions() : []), undefined, world)
  const budget = budgetOf(chain, limits)
  const baseEnv = base.env ?? chain.blockEnvironment(base.readHeight)
  let parent = sameBlock
    ? { number: BigInt(base.number) - 1n, timestamp: BigInt(base.timestamp) - SIMULATED_BLOCK_TIME, hash: chain.blockHash(base.number - 1) ?? new Uint8Array(32) }
    : { number: BigInt(base.readHeight), timestamp: BigInt(chain.timestampAt(base.readHeight)), hash: chain.blockHash(base.readHeight) ?? new Uint8Array(32) }
  const out: SimulatedBlock[] = []
  const refuse = (code: number, message: string) => ({ refused: { code, message } })
  for (const [index, input] of blocks.entries()) {
    if (sameBlock) parent = { ...parent, number: BigInt(base.number) - 1n, timestamp: BigInt(base.timestamp) - SIMULATED_BLOCK_TIME }
    const number = input.block?.number ?? parent.number + 1n
    if (sameBlock) {
      // Each bundle in the base's environment: its overrides alone move number and time.
    } else if (number <= parent.number) return refuse(SimulateErrorCode.BlockNumberInvalid, `block numbers must be in order: ${number} <= ${parent.number}`)
    if (!sameBlock && out.length + Number(number - parent.number) > MAX_SIMULATED_BLOCKS) {
      return refuse(SimulateErrorCode.ClientLimitExceeded, `too many blocks: more than ${MAX_SIMULATED_BLOCKS} (the gaps filled included)`)
    }
    // go-ethereum fills a gap in the numbers with empty blocks, each 12 s after the one before.
    while (!sameBlock && parent.number + 1n < number) parent = push(out, emptyBlock(parent, baseEnv))
    const timestamp = input.block?.time ?? parent.timestamp + SIMULATED_BLOCK_TIME
    if (!sameBlock && timestamp <= parent.timestamp) {
      return refuse(SimulateErrorCode.BlockTimestampInvalid, `block timestamps must be in order: ${timestamp} <= ${parent.timestamp}`)
    }
    const ctx = blockContext(base, baseEnv, number, timestamp, input.block)
    const env = ctx.env ?? CHAIN_BLOCK_ENVIRONMENT
    // The block's gas limit is the GASLIMIT its calls read (reference §6.3: the chain's block environment), or the override.
    const gasLimit = env.gasLimit
    if (input.state !== undefined) {
      engine.overridePrecompiles(input.state)
      await applyStateOverrides(world, input.state, chain.fork)
    }
    const calls: SimulatedCall[] = []
    let gasUsed = 0n
    let gasAsked = 0n
    for (const [i, call] of input.calls.entries()) {
      const where = `block ${index} call ${i}`
      const from = call.from ?? new Uint8Array(20)
      const sender = await accountOf(world, toHexRaw(from))
      const left = gasLimit - gasUsed
      const asked = call.gas ?? (left < EVM_TX_GAS_CAP ? left : EVM_TX_GAS_CAP)
      // Above the chain's cap per transaction: refused under validation (a block would not take it), else capped as eth_call caps it (reference §6.2).
      if (validation && asked > EVM_TX_GAS_CAP) return refuse(SimulateErrorCode.BlockGasLimitReached, `${where}: gas ${asked} above the chain's cap of ${EVM_TX_GAS_CAP} per transaction`)
      const gas = asked > EVM_TX_GAS_CAP ? EVM_TX_GAS_CAP : asked
      const price = call.gasPrice ?? 0n
      if (validation) {
        if (call.nonce !== undefined && call.nonce < sender.nonce)
          return refuse(SimulateErrorCode.NonceTooLow, `${where}: nonce too low: address 0x${toHexRaw(from)}, tx: ${call.nonce} state: ${sender.nonce}`)
        if (call.nonce !== undefined && call.nonce > sender.nonce)
          return refuse(SimulateErrorCode.NonceTooHigh, `${where}: nonce too high: address 0x${toHexRaw(from)}, tx: ${call.nonce} state: ${sender.nonce}`)
        if (sender.codeHash !== undefined) return refuse(SimulateErrorCode.SenderIsNotEOA, `${where}: sender not an eoa: address 0x${toHexRaw(from)}`)
        if (input.block?.baseFeePerGas !== undefined && price < input.block.baseFeePerGas) {
          return refuse(SimulateErrorCode.BaseFeeTooLow, `${where}: max fee per gas less than block base fee: gasPrice ${price}, baseFee ${input.block.baseFeePerGas}`)
        }
        gasAsked += gas
        if (gasAsked > gasLimit) return refuse(SimulateErrorCode.BlockGasLimitReached, `${where}: block gas limit reached: the calls ask ${gasAsked} gas of ${gasLimit}`)
      }
      // Without validation the nonce is not checked (go-ethereum's SkipNonceChecks): the sender's runs.
      const nonce = validation ? (call.nonce ?? sender.nonce) : sender.nonce
      const tx = impersonatedTransaction({ nonce, gasPrice: price, gasLimit: gas, to: call.to, value: call.value ?? 0n, data: call.data ?? new Uint8Array(0) }, chainId, from)
      const tracer = options.tracer?.(index, i)
      const detach = tracer?.attach(engine.events)
      let outcome: ExecutionOutcome
      try {
        outcome = await engine.executeTransaction(tx, ctx, budget)
      } catch (err) {
        const failure = runFailure(err)
        if (failure === undefined) throw err
        return refuse(failure, `${where}: ${(err as Error).message}`)
      } finally {
        detach?.()
      }
      gasUsed += outcome.gasUsed
      calls.push(tracer === undefined ? { tx, outcome } : { tx, outcome, trace: tracer.result(outcome, gas) })
    }
    parent = push(out, { number, timestamp, parentHash: parent.hash, env, gasLimit, gasUsed, calls })
  }
  return { blocks: out }
}

/** `address`'s record in `world`; over a fork an account not fetched yet is fetched first (the engine's own reads wait for theirs). */
async function accountOf(world: ReplayWorld, address: string): Promise<AccountRecord> {
  for (;;) {
    try {
      return world.getAccount(address)
    } catch (err) {
      if (!(err instanceof ForkMiss)) throw err
      await err.load()
    }
  }
}

/**
 * The context of block `height` and its first `index` transactions (Erigon's state
 * context; -1: all of them), or the refusal: a height the chain does not have, an index
 * past the block, a native transaction among them (the EVM replay cannot run it).
 */
function blockPrefix(chain: SimulationChain, height: number, index: number): { ctx: ExecutionContext; txs: LegacyTransaction[] } | { refused: SimulationRefusal } {
  const block = chain.blockAt(height)
  if (block === undefined || height === 0) return { refused: { code: -32602, message: `stateContext.blockNumber: block ${height} has no state before it to replay from` } }
  const count = index < 0 ? block.transactions.length : index
  if (count > block.transactions.length)
    return { refused: { code: -32602, message: `stateContext.transactionIndex ${index} is past the ${block.transactions.length} transactions of block ${height}` } }
  const txs: LegacyTransaction[] = []
  for (const entry of block.transactions.slice(0, count)) {
    if (entry.kind !== 'evm')
      return { refused: { code: -32602, message: `stateContext.transactionIndex: block ${height} holds a native transaction before index ${count}, which the EVM replay cannot run` } }
    txs.push(entry.tx)
  }
  return { ctx: { readHeight: height, number: height, timestamp: block.header.timestamp, env: chain.blockEnvironment(height) }, txs }
}

/** The execution-apis code of an execution that could not run at all (EvmEngine's texts), or `undefined` for another error. */
function runFailure(err: unknown): number | undefined {
  if (!(err instanceof Error)) return undefined
  if (err.message.startsWith('intrinsic gas too low') || err.message.startsWith('insufficient gas for floor data gas cost')) return SimulateErrorCode.IntrinsicGas
  if (err.message.startsWith('insufficient funds')) return SimulateErrorCode.InsufficientFunds
  return undefined
}

/** The execution context of a simulated block: its number and time, the base's environment under the block's overrides. */
function blockContext(base: ExecutionContext, env: BlockEnvironment, number: bigint, timestamp: bigint, block: BlockOverrides | undefined): ExecutionContext {
  const plain: ExecutionContext = { readHeight: base.readHeight, number: Number(number), timestamp: Number(timestamp), env }
  return withBlockOverrides(plain, { ...block, number, time: timestamp })
}

function emptyBlock(parent: { number: bigint; timestamp: bigint; hash: Uint8Array }, env: BlockEnvironment): Omit<SimulatedBlock, 'hash'> {
  return { number: parent.number + 1n, timestamp: parent.timestamp + SIMULATED_BLOCK_TIME, parentHash: parent.hash, env, gasLimit: env.gasLimit, gasUsed: 0n, calls: [] }
}

/** Seals `block` with its hash (keccak256 of parent hash, number, time and transaction hashes: no mined block's) and appends it; returns what the next block's parent is. */
function push(out: SimulatedBlock[], block: Omit<SimulatedBlock, 'hash'>): { number: bigint; timestamp: bigint; hash: Uint8Array } {
  const bytes = new Uint8Array(32 + 16 + 32 * block.calls.length)
  bytes.set(block.parentHash, 0)
  const view = new DataView(bytes.buffer)
  view.setBigUint64(32, block.number)
  view.setBigUint64(40, block.timestamp)
  for (const [i, { tx }] of block.calls.entries()) bytes.set(tx.hash, 48 + 32 * i)
  const hash = keccak256(bytes)
  out.push({ ...block, hash })
  return { number: block.number, timestamp: block.timestamp, hash }
}
