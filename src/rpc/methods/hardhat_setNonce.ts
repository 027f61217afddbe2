import { alias, anvilAlias, defineMethod } from '../declare.ts'
import { anyAddress, quantity } from '../paramSpecs.ts'

/** hardhat_setNonce / anvil_setNonce: sets the EVM nonce of an address; true. */
export const hardhat_setNonce = defineMethod({
  name: 'hardhat_setNonce',
  params: [anyAddress('address'), quantity('nonce')],
  fork: { kind: 'local' },
  handler: async (ctx, [address, nonce]) => {
    await ctx.controls.setNonce(address, nonce)
    return true as const
  },
})

/** anvil_setNonce: {@link hardhat_setNonce} under Anvil's name, answering null as Anvil does. */
export const anvil_setNonce = anvilAlias('anvil_setNonce', hardhat_setNonce)

/** evm_setAccountNonce: {@link hardhat_setNonce} under Ganache's name. */
export const evm_setAccountNonce = alias('evm_setAccountNonce', hardhat_setNonce)
