import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { quantity } from '../paramSpecs.ts'
import { GWEI } from '../../core/constants.ts'

/**
 * hardhat_setMinGasPrice: as anvil_setMinGasPrice, answering Hardhat's true
 * (Hardhat's docs "hardhat_setMinGasPrice"). The node's floor counts in whole gwei.
 */
export const hardhat_setMinGasPrice = defineMethod({
  name: 'hardhat_setMinGasPrice',
  params: [quantity('gasPrice')],
  fork: { kind: 'local' },
  handler: (ctx, [wei]) => {
    if (wei % GWEI !== 0n) throw invalidArgument(0, `gasPrice: ${wei} wei is not a whole number of gwei, the unit of the node's minimum gas price`)
    ctx.controls.setMinGasPrice(wei)
    return true as const
  },
})
