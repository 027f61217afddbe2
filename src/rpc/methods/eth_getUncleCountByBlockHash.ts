import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * eth_getUncleCountByBlockHash: "0x0" (the chain has no uncles, reference §6.2); null
 * for an unknown block. On a fork, a block it did not build is the remote's, placed
 * by its header (rpc/forkPolicy.ts).
 */
export const eth_getUncleCountByBlockHash = defineMethod({
  name: 'eth_getUncleCountByBlockHash',
  params: [hash('hash')],
  fork: { kind: 'block', by: 'hash', param: 0, check: 'header' },
  handler: (ctx, [bytes]) => (ctx.chain.blockByHash(toHexRaw(bytes)) === undefined ? null : '0x0'),
})
