import { alias, defineMethod } from '../declare.ts'
import { anyAddress, quantity } from '../paramSpecs.ts'

/**
 * anvil_addBalance / hardhat_addBalance: adds `wei` to the gas-token balance of an
 * address (what eth_getBalance shows); null, as Anvil's `anvil_add_balance` (foundry
 * crates/anvil/src/eth/api.rs).
 */
export const anvil_addBalance = defineMethod({
  name: 'anvil_addBalance',
  params: [anyAddress('address'), quantity('wei')],
  fork: { kind: 'local' },
  handler: async (ctx, [address, wei]) => {
    await ctx.controls.addBalance(address, wei)
    return null
  },
})

/** hardhat_addBalance: {@link anvil_addBalance} under Hardhat's name. */
export const hardhat_addBalance = alias('hardhat_addBalance', anvil_addBalance)

/** tenderly_addBalance: {@link anvil_addBalance} under Tenderly's name, which Anvil also answers (foundry crates/anvil/core/src/eth/mod.rs). */
export const tenderly_addBalance = alias('tenderly_addBalance', anvil_addBalance)
