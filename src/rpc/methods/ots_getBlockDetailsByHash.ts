import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { formatBlockDetails, withDetailsStateRoot } from './ots_getBlockDetails.ts'
import { toHexRaw } from '../../util/hex.ts'

/** ots_getBlockDetailsByHash: ots_getBlockDetails of the block by hash, or null when none (otterscan docs/custom-jsonrpc.md). Local on a fork. */
export const ots_getBlockDetailsByHash = defineMethod({
  name: 'ots_getBlockDetailsByHash',
  params: [hash('hash')],
  fork: { kind: 'local' },
  handler: (ctx, [bytes]) => {
    const block = ctx.chain.blockByHash(toHexRaw(bytes))
    return block === undefined ? null : withDetailsStateRoot(ctx, block, formatBlockDetails(block))
  },
})
