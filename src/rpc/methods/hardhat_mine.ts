import { anvilAlias, defineMethod } from '../declare.ts'
import { numberish, optional } from '../paramSpecs.ts'

/**
 * hardhat_mine / anvil_mine: mines `blocks` blocks (default 1) whose timestamps after
 * the first are `interval` seconds apart (default 1); true. An interval of 0 is taken
 * as Anvil takes it (viem's `testClient.mine({ blocks })` sends `[blocks, 0]`): the
 * blocks follow the clock, one second apart at least, since this chain's timestamps
 * strictly increase.
 */
export const hardhat_mine = defineMethod({
  name: 'hardhat_mine',
  params: [optional(numberish('blocks'), 1), optional(numberish('interval'), 1)],
  fork: { kind: 'local' },
  handler: async (ctx, [count, spacing]) => {
    await ctx.controls.mine(count, spacing)
    return true as const
  },
})

/** anvil_mine: {@link hardhat_mine} under Anvil's name, answering null as Anvil does. */
export const anvil_mine = anvilAlias('anvil_mine', hardhat_mine)
