import { alias, defineMethod } from '../declare.ts'
import { parseNumberish } from '../params.ts'
import { optional, param } from '../paramSpecs.ts'
import { formatBlock } from '../format.ts'
import { withStateRoot } from '../stateRoots.ts'
import type { Numberish, RpcBlock } from '../../core/rpcObjects.ts'

/** What evm_mine_detailed's argument asks: how many blocks, and the first one's timestamp (Unix seconds) when given. */
interface MineRequest {
  blocks: number
  timestamp: number | undefined
}

/**
 * evm_mine_detailed / anvil_mine_detailed: mines as evm_mine does (a timestamp, or
 * Anvil's `MineOptions` `{ timestamp, blocks }`) and answers the blocks it mined, with
 * full transaction objects, oldest first (foundry crates/anvil/src/eth/api.rs
 * `evm_mine_detailed`).
 */
export const evm_mine_detailed = defineMethod({
  name: 'evm_mine_detailed',
  params: [
    optional(
      param<Numberish | { timestamp?: Numberish; blocks?: Numberish }, MineRequest>('options', (arg, index) => {
        if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) {
          const o = arg as Record<string, unknown>
          const timestamp = o.timestamp === undefined || o.timestamp === null ? undefined : parseNumberish(o.timestamp, index)
          return { blocks: o.blocks === undefined || o.blocks === null ? 1 : parseNumberish(o.blocks, index), timestamp }
        }
        return { blocks: 1, timestamp: parseNumberish(arg, index) }
      }),
      { blocks: 1, timestamp: undefined },
    ),
  ],
  fork: { kind: 'local' },
  handler: async (ctx, [{ blocks, timestamp }]) => {
    const before = ctx.chain.height
    if (timestamp !== undefined) await ctx.controls.setNextBlockTimestamp(timestamp)
    await ctx.controls.mine(blocks)
    const mined: RpcBlock[] = []
    for (let height = before + 1; height <= ctx.chain.height; height++) {
      const block = ctx.chain.blockAt(height)
      if (block !== undefined) mined.push(await withStateRoot(ctx, block, formatBlock(block, true)))
    }
    return mined
  },
})

/** anvil_mine_detailed: {@link evm_mine_detailed} under Anvil's name. */
export const anvil_mine_detailed = alias('anvil_mine_detailed', evm_mine_detailed)
