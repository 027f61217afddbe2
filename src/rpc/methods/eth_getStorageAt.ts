import { stateHeight } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams, parseAddress, parseStorageSlot } from '../params.ts'
import { historyBelow } from '../forkHistory.ts'
import { toHex, toQuantity } from '../../util/hex.ts'

/**
 * eth_getStorageAt: the value of a slot as 32 bytes, and "0x" for a slot never set,
 * as the real node answers (reference §6.2). The position is a QUANTITY or 32-byte
 * DATA (see parseStorageSlot). Below a fork's block, the remote's answer (kept).
 */
export const eth_getStorageAt: RpcMethod = (ctx, params) => {
  const [address, position, block] = expectParams(params, 3)
  const a = parseAddress(address, 0)
  const slot = parseStorageSlot(position, 1)
  const height = stateHeight(ctx, block, 2)
  const history = historyBelow(ctx.chain, height)
  if (history !== undefined) return history.answer('eth_getStorageAt', [toHex(a), toHex(slot), toQuantity(height)])
  const value = ctx.chain.storage(a, slot, height)
  if (value.length === 0) return '0x'
  const word = new Uint8Array(32)
  word.set(value, 32 - value.length)
  return toHex(word)
}
