import { alias, defineMethod } from '../declare.ts'
import { quantity } from '../paramSpecs.ts'
import { toQuantity } from '../../util/hex.ts'

/** evm_revert: restores a snapshot; the id and all later ones become invalid (Hardhat). false for an unknown id. */
export const evm_revert = defineMethod({
  name: 'evm_revert',
  params: [quantity('id')],
  fork: { kind: 'local' },
  // The id in its canonical form, as evm_snapshot gave it ("0x01" and "0x1" are one id).
  handler: (ctx, [id]) => ctx.controls.snapshots.revert(toQuantity(id)),
})

/** anvil_revert: {@link evm_revert} under Anvil's name. */
export const anvil_revert = alias('anvil_revert', evm_revert)
