import { defineMethod } from '../declare.ts'
import { parseNumberish } from '../params.ts'
import { optional, param } from '../paramSpecs.ts'
import type { Numberish } from '../../core/rpcObjects.ts'

/** What evm_mine's argument asks: how many blocks, and the first one's timestamp (Unix seconds) when given. */
interface MineRequest {
  blocks: number
  timestamp: number | undefined
}

/**
 * evm_mine: mines one block, with an optional timestamp (Hardhat: a number or
 * QUANTITY; Ganache: `{ timestamp, blocks }`). Returns "0x0" as Hardhat does.
 */
export const evm_mine = defineMethod({
  name: 'evm_mine',
  params: [
    optional(
      param<Numberish | { timestamp?: Numberish; blocks?: Numberish }, MineRequest>('timestamp', (arg, index) => {
        if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) {
          const o = arg as Record<string, unknown>
          const timestamp = o.timestamp === undefined ? undefined : parseNumberish(o.timestamp, index)
          return { blocks: o.blocks === undefined ? 1 : parseNumberish(o.blocks, index), timestamp }
        }
        return { blocks: 1, timestamp: parseNumberish(arg, index) }
      }),
      { blocks: 1, timestamp: undefined },
    ),
  ],
  fork: { kind: 'local' },
  handler: async (ctx, [{ blocks, timestamp }]) => {
    if (timestamp !== undefined) await ctx.controls.setNextBlockTimestamp(timestamp)
    await ctx.controls.mine(blocks)
    return '0x0' as const
  },
})
