import { defineMethod } from '../declare.ts'
import { toQuantity } from '../../util/hex.ts'
import { gasPriceGwei } from '../../chain/gasPrice.ts'
import { GWEI } from '../../core/constants.ts'

/** eth_gasPrice: the REST gas price (reference §1.4.9) in wei; "0x0" on a fresh solo node. */
export const eth_gasPrice = defineMethod({
  name: 'eth_gasPrice',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => toQuantity(gasPriceGwei(ctx.chain).gasPrice * GWEI),
})
