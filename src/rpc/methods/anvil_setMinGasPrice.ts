import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { param, quantity } from '../paramSpecs.ts'
import { GWEI } from '../../core/constants.ts'

/** A minimum gas price in wei (QUANTITY) that the node's floor can hold: a whole number of gwei, else -32602 naming it. */
export const wholeGweiPrice = (name: string) =>
  param<string, bigint>(name, (value, index, ctx) => {
    const wei = quantity(name).parse(value, index, ctx)
    if (wei % GWEI !== 0n) throw invalidArgument(index, `${name}: ${wei} wei is not a whole number of gwei, the unit of the node's minimum gas price`)
    return wei
  })

/**
 * anvil_setMinGasPrice: the pool's least gas price (wei) for transactions sent from
 * now on; null (foundry crates/anvil/src/eth/api.rs `anvil_set_min_gas_price`). The
 * node's floor counts in whole gwei, so another amount is -32602 naming it.
 */
export const anvil_setMinGasPrice = defineMethod({
  name: 'anvil_setMinGasPrice',
  params: [wholeGweiPrice('gasPrice')],
  fork: { kind: 'local' },
  handler: (ctx, [wei]) => {
    ctx.controls.setMinGasPrice(wei)
    return null
  },
})
