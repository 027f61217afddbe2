import { defineMethod } from '../declare.ts'
import { boolean } from '../paramSpecs.ts'

/**
 * anvil_setAutomine: turns automine on or off; null (Anvil's answer, where Hardhat's
 * evm_setAutomine answers true). Source: foundry crates/anvil/src/eth/api.rs `anvil_set_auto_mine`.
 */
export const anvil_setAutomine = defineMethod({
  name: 'anvil_setAutomine',
  params: [boolean('enabled')],
  fork: { kind: 'local' },
  handler: async (ctx, [on]) => {
    await ctx.controls.setAutomine(on)
    return null
  },
})
