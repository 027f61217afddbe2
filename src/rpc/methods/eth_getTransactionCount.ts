import { defineMethod } from '../declare.ts'
import { address, stateBlock } from '../paramSpecs.ts'
import { toQuantity } from '../../util/hex.ts'

/** eth_getTransactionCount: EVM nonce as of the block; with `pending`, the pool's next nonce (reference §6.2); below a fork's block, the remote's answer (kept). */
export const eth_getTransactionCount = defineMethod({
  name: 'eth_getTransactionCount',
  params: [address('address'), stateBlock('block', 'pool')],
  fork: { kind: 'state', param: 1 },
  handler: (ctx, [a, at]) => toQuantity(at === 'pending' ? ctx.chain.pendingNonce(a) : ctx.chain.account(a, at).nonce),
})
