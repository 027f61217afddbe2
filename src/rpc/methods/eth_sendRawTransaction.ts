import { defineMethod } from '../declare.ts'
import { data } from '../paramSpecs.ts'
import { toHex } from '../../util/hex.ts'

/**
 * eth_sendRawTransaction: a signed legacy EIP-155 transaction (reference §6.5).
 * With automine it is mined before the hash is returned.
 */
export const eth_sendRawTransaction = defineMethod({
  name: 'eth_sendRawTransaction',
  params: [data('raw')],
  fork: { kind: 'local' },
  handler: async (ctx, [raw]) => toHex(await ctx.chain.submitRawTransaction(raw)),
})
