import { defineMethod } from '../declare.ts'
import { wholeGweiPrice } from './anvil_setMinGasPrice.ts'

/**
 * hardhat_setMinGasPrice: as anvil_setMinGasPrice, answering Hardhat's true
 * (Hardhat's docs "hardhat_setMinGasPrice"). The node's floor counts in whole gwei.
 */
export const hardhat_setMinGasPrice = defineMethod({
  name: 'hardhat_setMinGasPrice',
  params: [wholeGweiPrice('gasPrice')],
  fork: { kind: 'local' },
  handler: (ctx, [wei]) => {
    ctx.controls.setMinGasPrice(wei)
    return true as const
  },
})
