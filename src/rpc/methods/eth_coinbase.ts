import { defineMethod } from '../declare.ts'
import { toHex } from '../../util/hex.ts'

/** eth_coinbase: the zero address, the real node's (reference §6.2), or what hardhat_setCoinbase set. */
export const eth_coinbase = defineMethod({
  name: 'eth_coinbase',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => toHex(ctx.chain.blockSettings.coinbase),
})
