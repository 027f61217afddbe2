import { defineMethod } from '../declare.ts'
import { address, stateBlock } from '../paramSpecs.ts'
import { toHex } from '../../util/hex.ts'

/** eth_getCode: code at the address as of the block; the tag `pending` is an invalid parameter (spec, Errors 7); below a fork's block, the remote's answer (kept). */
export const eth_getCode = defineMethod({
  name: 'eth_getCode',
  params: [address('address'), stateBlock('block', 'refuse')],
  fork: { kind: 'state', param: 1 },
  handler: (ctx, [a, height]) => toHex(ctx.chain.code(a, height)),
})
