import { defineMethod } from '../declare.ts'
import { address, lenient, stateBlock } from '../paramSpecs.ts'

/**
 * ots_hasCode: whether the address holds code as of the block (otterscan
 * docs/custom-jsonrpc.md; Anvil crates/anvil/src/eth/otterscan/api.rs ots_has_code).
 * Below a fork's block, the remote's eth_getCode decides through the state source.
 */
export const ots_hasCode = defineMethod({
  name: 'ots_hasCode',
  params: [address('address'), lenient(stateBlock('block'))],
  fork: { kind: 'local' },
  handler: (ctx, [a, height]) => ctx.chain.code(a, height).length > 0,
})
