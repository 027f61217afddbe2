import { alias, anvilAlias, defineMethod } from '../declare.ts'
import { anyAddress, quantity } from '../paramSpecs.ts'

/** hardhat_setBalance / anvil_setBalance: the gas-token balance in wei (what eth_getBalance shows); true. */
export const hardhat_setBalance = defineMethod({
  name: 'hardhat_setBalance',
  params: [anyAddress('address'), quantity('wei')],
  fork: { kind: 'local' },
  handler: async (ctx, [address, wei]) => {
    await ctx.controls.setBalance(address, { gas: wei })
    return true as const
  },
})

/** anvil_setBalance: {@link hardhat_setBalance} under Anvil's name, answering null as Anvil does. */
export const anvil_setBalance = anvilAlias('anvil_setBalance', hardhat_setBalance)

/** evm_setAccountBalance: {@link hardhat_setBalance} under Ganache's name (viem's setBalance in mode ganache). */
export const evm_setAccountBalance = alias('evm_setAccountBalance', hardhat_setBalance)

/** tenderly_setBalance: {@link hardhat_setBalance} under Tenderly's name, which Anvil also answers (foundry crates/anvil/core/src/eth/mod.rs). */
export const tenderly_setBalance = alias('tenderly_setBalance', hardhat_setBalance)
