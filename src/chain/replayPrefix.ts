/**
 * The state inside a mined block: the block's first transactions replayed on the state
 * before it (debug_accountInfoAt). Reads the chain through {@link ReplayChain}, as
 * the tracers' replays do, and writes nothing.
 */
import type { ExecutionContext } from '../evm/executor.ts'
import { TraceUnavailableError } from '../evm/tracing/tracer.ts'
import type { ChainBlock } from './block.ts'
import { budgetOf, ReplayWorld, type ReplayBudget, type ReplayChain } from './replay.ts'

/**
 * The world after transactions 0..`index` (inclusive) of `block` ran on the state
 * before it. Throws {@link TraceUnavailableError} when one of them is a native
 * transaction (the EVM replay cannot run it); the budget's error past its deadline,
 * ExecutionAbortedError when the devnet closes.
 */
export async function stateAfterTransaction(chain: ReplayChain, block: ChainBlock, index: number, limits?: ReplayBudget): Promise<ReplayWorld> {
  const height = block.header.height
  const world = new ReplayWorld(chain.world, height - 1)
  const engine = await chain.executor.replayEngine(world)
  const ctx: ExecutionContext = { readHeight: height, number: height, timestamp: block.header.timestamp, env: chain.blockEnvironment(height) }
  const budget = budgetOf(chain, limits)
  for (const entry of block.transactions.slice(0, index + 1)) {
    if (entry.kind !== 'evm') throw new TraceUnavailableError('the block holds a native transaction there, which the EVM replay cannot run')
    await engine.executeTransaction(entry.tx, ctx, budget)
  }
  return world
}
