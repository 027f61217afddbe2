import { alias, defineMethod } from '../declare.ts'
import { anyAddress, fixedData, storageSlot } from '../paramSpecs.ts'

/** hardhat_setStorageAt / anvil_setStorageAt: writes a 32-byte value into a storage slot; true. */
export const hardhat_setStorageAt = defineMethod({
  name: 'hardhat_setStorageAt',
  params: [anyAddress('address'), storageSlot('slot'), fixedData('value', 32, 'a storage value')],
  fork: { kind: 'local' },
  handler: async (ctx, [address, slot, value]) => {
    await ctx.controls.setStorageAt(address, slot, value)
    return true as const
  },
})

/** anvil_setStorageAt: {@link hardhat_setStorageAt} under Anvil's name. */
export const anvil_setStorageAt = alias('anvil_setStorageAt', hardhat_setStorageAt)

/** evm_setAccountStorageAt: {@link hardhat_setStorageAt} under Ganache's name. */
export const evm_setAccountStorageAt = alias('evm_setAccountStorageAt', hardhat_setStorageAt)
