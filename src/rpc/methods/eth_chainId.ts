import { defineMethod } from '../declare.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_chainId: the EIP-155 chain id ("0x3039" on solo, reference §6.2). */
export const eth_chainId = defineMethod({
  name: 'eth_chainId',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => toQuantity(ctx.chainId),
})
