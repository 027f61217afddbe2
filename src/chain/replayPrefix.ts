/**
 * The state inside a mined block: the block's first transactions replayed on the state
 * before it (debug_accountInfoAt). Reads the chain through {@link ReplayChain}, as
 * the tracers' replays do, and writes nothing.
 */
import { TraceUnavailableError } from '../evm/tracing/tracer.ts'
import type { ChainBlock } from './block.ts'
import { ReplayWorld, replayInBlock, type ReplayBudget, type ReplayChain } from './replay.ts'

/**
 * The world after transactions 0..`index` (inclusive) of `block` ran on the state
 * before it. Throws {@link TraceUnavailableError} when one of them is a native
 * transaction (the EVM replay cannot run it); the budget's error past its deadline,
 * ExecutionAbortedError when the devnet closes.
 */
export async function stateAfterTransaction(chain: ReplayChain, block: ChainBlock, index: number, limits?: ReplayBudget): Promise<ReplayWorld> {
  const world = new ReplayWorld(chain.world, block.header.height - 1)
  await replayInBlock(chain, block, world, limits, {
    before: index + 1,
    nativeError: () => new TraceUnavailableError('the block holds a native transaction there, which the EVM replay cannot run'),
  })
  return world
}
