/**
 * Simulations on the chain's state, committing nothing (architecture: chain/):
 * eth_call, REST pre-execution and eth_estimateGas, and the block environment each
 * runs in under the chain's {@link BlockContext} (reference §6.2). Each run goes
 * through the chain's queue, so it never interleaves with a block being mined.
 * The public face is Chain's methods of the same names.
 */
import type { ChainCore } from './chainCore.ts'
import { stateHeight } from './chainCore.ts'
import type { BlockContext, SimulationBlock } from './chainTypes.ts'
import { printConsoleCalls } from './consoleOutput.ts'
import { executionError, simulationFailure } from './executionErrors.ts'
import { searchGasLimit } from './gasEstimation.ts'
import { touchedMiss } from './queue.ts'
import { TransactionRejectedError } from '../core/errors.ts'
import { toHexRaw } from '../util/hex.ts'
import { CHAIN_BLOCK_ENVIRONMENT, type BlockEnvironment, type CallRequest, type EvmExecutor, type ExecutionContext, type ExecutionOutcome } from '../evm/executor.ts'
import type { LegacyTransaction } from '../evm/legacyTransaction.ts'
import { ForkMiss, waitingForkMisses } from '../fork/miss.ts'
import { ForkRemoteError } from '../fork/remote.ts'
import type { SimulationOverrides } from '../evm/overrides.ts'
import { withBlockOverrides } from './overrides.ts'

/**
 * Simulates `call` at `block` (eth_call) in the environment {@link simulationContext}
 * gives: by default the latest block's under the chain's {@link BlockContext}; under
 * `overrides` (state and block overrides, evm/overrides.ts) when given, which nothing
 * keeps. Resolves to the return data. Throws {@link ExecutionFailedError} on revert or
 * another EVM error, {@link TransactionRejectedError} when it cannot run (e.g. funds
 * for `value`), {@link UnknownBlockError} for a height above the tip.
 */
export async function call(core: ChainCore, call: CallRequest, block: SimulationBlock, overrides?: SimulationOverrides): Promise<Uint8Array> {
  const outcome = await simulator(core, simulationContext(core, block, 'call'), overrides)(call)
  await printConsole(core, outcome)
  if (outcome.status === 0) throw executionError(outcome)
  return outcome.returnValue
}

/**
 * Runs `call` on the latest state without committing (REST `preExec=1`) and resolves
 * to the outcome, failed or not; its logs end with the fee's Transfer log, as a mined
 * transaction's would (CallRequest.feeLog). Throws {@link TransactionRejectedError}
 * when it cannot run at all.
 */
export function preExecute(core: ChainCore, call: CallRequest): Promise<ExecutionOutcome> {
  // The node's pre-execution: the latest state, NUMBER the height, TIMESTAMP + 1 (reference §6.2).
  const height = core.blocks.height
  return simulator(core, { readHeight: height, number: height, timestamp: core.blocks.timestampAt(height) + 1, env: core.settings.next() })({ ...call, feeLog: true })
}

/**
 * Gas limit sufficient for `call` at `block` (eth_estimateGas; default `'pending'`,
 * the block the transaction would land in), in the environment
 * {@link simulationContext} gives, under `overrides` when given (a gas limit override
 * caps the search; a balance override of the sender bounds it); the search is
 * gasEstimation.ts's `searchGasLimit`. Throws {@link ExecutionFailedError} when the call fails at the cap,
 * {@link UnknownBlockError} for a height above the tip.
 */
export async function estimateGas(core: ChainCore, call: CallRequest, block: SimulationBlock, overrides?: SimulationOverrides): Promise<bigint> {
  // One environment for the whole search, fixed when the estimate is asked.
  const env = simulationContext(core, block, 'estimate')
  return searchGasLimit(call, overrides?.block === undefined ? env : withBlockOverrides(env, overrides.block), {
    simulate: simulator(core, env, overrides),
    balance: () => {
      const from = toHexRaw(call.from)
      return overrides?.state?.get(from)?.balance ?? core.world.getAccount(from, stateHeight(core, env.readHeight)).gas
    },
    printConsole: (outcome) => printConsole(core, outcome),
  })
}

/** Chain.nextTimestamp: the next block's timestamp if it were mined now, without moving the clock. */
export function nextTimestamp(core: ChainCore): number {
  return core.clock.peekAfter(core.blocks.timestampAt(core.blocks.height))
}

/**
 * The environment a simulation at `block` runs in (see {@link BlockContext}): the
 * height whose state it reads, NUMBER and TIMESTAMP. `'pending'`, and under
 * `'node'` an estimate on the latest state, is the next block ({@link nextTimestamp});
 * a height under `'ethereum'` is that block's own environment. Throws
 * {@link UnknownBlockError} for a height the chain does not have.
 */
export function simulationContext(core: ChainCore, block: SimulationBlock, kind: 'call' | 'estimate'): ExecutionContext {
  const height = core.blocks.height
  if (block === 'pending' || (kind === 'estimate' && core.blockContext === 'node' && block === height)) {
    return { readHeight: height, number: height + 1, timestamp: nextTimestamp(core), env: core.settings.next() }
  }
  const at = stateHeight(core, block)
  const timestampAt = (h: number) => core.blocks.timestampAt(h)
  if (core.blockContext === 'ethereum') return { readHeight: at, number: at, timestamp: timestampAt(at), env: blockEnvironment(core, at) }
  // The node runs a call at the latest block as the block to come (TIMESTAMP + 1): the next block's environment.
  if (kind === 'call') return { readHeight: at, number: at, timestamp: timestampAt(at) + 1, env: at === height ? core.settings.next() : blockEnvironment(core, at) }
  // An estimate on an older block's state: the block that followed it.
  return { readHeight: at, number: at + 1, timestamp: timestampAt(at + 1), env: blockEnvironment(core, at + 1) }
}

/**
 * The EVM block environment of block `height` (COINBASE, GASLIMIT, BASEFEE,
 * PREVRANDAO): the one it was mined in; for a block that recorded none (genesis, a
 * block of a reserved empty run, a block from an older database), the coinbase and
 * gas limit set now with the chain's base fee (0) and PREVRANDAO (0).
 */
export function blockEnvironment(core: ChainCore, height: number): BlockEnvironment {
  const recorded = core.blocks.isPendingEmpty(height) ? undefined : core.blocks.built(height)?.env
  if (recorded !== undefined) return recorded
  const { coinbase, gasLimit } = core.settings
  return { ...CHAIN_BLOCK_ENVIRONMENT, coinbase, gasLimit }
}

/** Chain.pendingBlockTransactions: the executable EVM transactions of the pool in mining order (per sender by nonce, senders by gas price). */
export function pendingBlockTransactions(core: ChainCore): LegacyTransaction[] {
  if (core.mempool.size === 0) return []
  return core.mempool.executable((sender) => core.world.getAccount(sender, core.blocks.height).nonce).map((pooled) => pooled.tx)
}

/**
 * What runs the simulations of one request in `env`, each in the chain's queue: the
 * devnet's EVM; in the next block while EVM transactions wait for it (automine off),
 * an engine of its own on which they ran first (replay.ts `pendingEngine`, built by
 * the first simulation), as go-ethereum's, Hardhat's and Anvil's pending block holds
 * them. Native transactions in the pool are not applied. Under a state override set
 * the runs are such an engine's too (built the same way, the overrides written into
 * its overlay after the pool's transactions), so the devnet's state and EVM never see
 * them; block overrides change the runs' context only (withBlockOverrides), not the
 * pool's transactions'. A call that cannot run at all rejects with
 * {@link TransactionRejectedError}.
 */
function simulator(core: ChainCore, env: ExecutionContext, overrides?: SimulationOverrides): (call: CallRequest) => Promise<ExecutionOutcome> {
  const height = core.blocks.height
  const txs = env.readHeight === height && env.number === height + 1 ? pendingBlockTransactions(core) : []
  // Without overrides (the hot path) nothing more is allocated.
  const state = overrides?.state
  const ctx = overrides?.block === undefined ? env : withBlockOverrides(env, overrides.block)
  let pending: Promise<{ simulate: EvmExecutor['simulate'] }> | undefined
  return (call) =>
    core.queue.runReadOnly(async () => {
      // Over a fork: the sender and recipient, when not fetched yet, fetched together outside the queue (queue.ts).
      const miss = core.fork === undefined ? undefined : touchedMiss(core.fork, call.from, call.to)
      if (miss !== undefined) throw miss
      try {
        if (txs.length === 0 && state === undefined) return await core.executor.simulate(call, ctx)
        // The pending engine is built once, by replaying the pool (whose runs' errors it keeps as
        // outcomes), and kept: over a fork its misses are waited for, not yielded (fork/miss.ts).
        const waiting = core.fork === undefined ? <R>(work: () => Promise<R>) => work() : waitingForkMisses
        pending ??= import('./replay.ts').then(({ pendingEngine }) => waiting(() => pendingEngine(core, env, txs, state)))
        const runner = await pending
        return await waiting(() => runner.simulate(call, ctx))
      } catch (err) {
        // A miss is the queue's to fetch (the run wrote nothing: a simulation commits nothing).
        if (err instanceof ForkMiss || err instanceof ForkRemoteError) throw err
        throw new TransactionRejectedError(simulationFailure(err), { cause: err })
      }
    })
}

/** Prints the console.log lines of a simulation to the chain's sink, if it has one. */
async function printConsole(core: ChainCore, outcome: ExecutionOutcome): Promise<void> {
  if (outcome.consoleCalls !== undefined && core.console !== undefined) await printConsoleCalls(core.console, outcome.consoleCalls)
}
