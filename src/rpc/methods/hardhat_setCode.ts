import { alias, anvilAlias, defineMethod } from '../declare.ts'
import { anyAddress, data } from '../paramSpecs.ts'

/** hardhat_setCode / anvil_setCode: replaces the EVM code of an address; true. */
export const hardhat_setCode = defineMethod({
  name: 'hardhat_setCode',
  params: [anyAddress('address'), data('code')],
  fork: { kind: 'local' },
  handler: async (ctx, [address, code]) => {
    await ctx.controls.setCode(address, code)
    return true as const
  },
})

/** anvil_setCode: {@link hardhat_setCode} under Anvil's name, answering null as Anvil does. */
export const anvil_setCode = anvilAlias('anvil_setCode', hardhat_setCode)

/** evm_setAccountCode: {@link hardhat_setCode} under Ganache's name (viem's setCode in mode ganache). */
export const evm_setAccountCode = alias('evm_setAccountCode', hardhat_setCode)
