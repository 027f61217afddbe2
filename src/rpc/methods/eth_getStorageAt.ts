import { defineMethod } from '../declare.ts'
import { address, stateBlock, storageSlot } from '../paramSpecs.ts'
import { storageWord, toHex } from '../../util/hex.ts'

/**
 * eth_getStorageAt: the value of a slot as 32 bytes. A slot that holds nothing (never
 * set, or set and cleared) is the real node's "0x" (its raw stored bytes, reference
 * §6.2), or 32 zero bytes, as go-ethereum, Hardhat and Anvil answer, with option
 * `emptyStorage` (or `profile`) `'ethereum'`. The position is a QUANTITY or 32-byte
 * DATA (see parseStorageSlot). Below a fork's block, the remote's answer (kept).
 */
export const eth_getStorageAt = defineMethod({
  name: 'eth_getStorageAt',
  params: [address('address'), storageSlot('slot'), stateBlock('block')],
  fork: { kind: 'state', param: 2 },
  handler: (ctx, [a, slot, height]) => {
    const value = ctx.chain.storage(a, slot, height)
    if (value.length === 0 && ctx.emptyStorage === 'node') return '0x'
    return toHex(storageWord(value))
  },
})
