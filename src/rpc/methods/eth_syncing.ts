import { defineMethod } from '../declare.ts'
import { toQuantity } from '../../util/hex.ts'

/**
 * eth_syncing: always an object on the real node, never false; on solo the highest
 * block is the constant MaxPeerBlockHeight 1 (reference §6.2, §8).
 */
export const eth_syncing = defineMethod({
  name: 'eth_syncing',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ({ startingBlock: '0x0', currentBlock: toQuantity(ctx.chain.height), highestBlock: '0x1' }),
})
