import { defineMethod } from '../declare.ts'
import { numberish } from '../paramSpecs.ts'

/**
 * anvil_setIntervalMining: mines a block every `seconds` seconds (0 stops it); null.
 * Anvil counts in seconds (foundry crates/anvil/src/eth/api.rs `anvil_set_interval_mining`),
 * where Hardhat's evm_setIntervalMining counts in milliseconds.
 */
export const anvil_setIntervalMining = defineMethod({
  name: 'anvil_setIntervalMining',
  params: [numberish('seconds')],
  fork: { kind: 'local' },
  handler: async (ctx, [seconds]) => {
    await ctx.controls.setIntervalMining(seconds * 1000)
    return null
  },
})
