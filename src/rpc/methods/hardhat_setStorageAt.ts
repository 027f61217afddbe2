import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddressText, parseFixedData, parseStorageSlot } from '../params.ts'

/** hardhat_setStorageAt / anvil_setStorageAt: writes a 32-byte value into a storage slot; true. */
export const hardhat_setStorageAt: RpcMethod = async (ctx, params) => {
  const [address, slot, value] = expectParams(params, 3)
  await ctx.controls.setStorageAt(parseAddressText(address, 0), parseStorageSlot(slot, 1), parseFixedData(value, 2, 32, 'a storage value'))
  return true
}
