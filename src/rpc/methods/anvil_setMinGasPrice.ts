import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { quantity } from '../paramSpecs.ts'
import { GWEI } from '../../core/constants.ts'

/**
 * anvil_setMinGasPrice: the pool's least gas price (wei) for transactions sent from
 * now on; null (foundry crates/anvil/src/eth/api.rs `anvil_set_min_gas_price`). The
 * node's floor counts in whole gwei, so another amount is -32602 naming it.
 */
export const anvil_setMinGasPrice = defineMethod({
  name: 'anvil_setMinGasPrice',
  params: [quantity('gasPrice')],
  fork: { kind: 'local' },
  handler: (ctx, [wei]) => {
    if (wei % GWEI !== 0n) throw invalidArgument(0, `gasPrice: ${wei} wei is not a whole number of gwei, the unit of the node's minimum gas price`)
    ctx.controls.setMinGasPrice(wei)
    return null
  },
})
