import { defineMethod } from '../declare.ts'
import { blockNumberLookup } from '../paramSpecs.ts'

/**
 * eth_getUncleCountByBlockNumber: "0x0" (the chain has no uncles); null for an unknown
 * block. At or below a fork's block, the remote's count, asked by the block's hash (the
 * real node takes only JSON numbers here, reference §6.2; rpc/forkPolicy.ts `byHash`).
 */
export const eth_getUncleCountByBlockNumber = defineMethod({
  name: 'eth_getUncleCountByBlockNumber',
  params: [blockNumberLookup('block')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'header', byHash: 'eth_getUncleCountByBlockHash' },
  handler: (_ctx, [height]) => (height === undefined ? null : '0x0'),
})
