import { defineMethod } from '../declare.ts'
import { address, stateBlock } from '../paramSpecs.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_getBalance: gas-token balance in wei (v2, 18 decimals; reference §4.1) as of the block given; below a fork's block, the remote's answer (kept). */
export const eth_getBalance = defineMethod({
  name: 'eth_getBalance',
  params: [address('address'), stateBlock('block')],
  fork: { kind: 'state', param: 1 },
  handler: (ctx, [a, height]) => toQuantity(ctx.chain.account(a, height).gas),
})
