import { defineMethod } from '../declare.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_blockNumber: height of the latest block. */
export const eth_blockNumber = defineMethod({
  name: 'eth_blockNumber',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => toQuantity(ctx.chain.height),
})
