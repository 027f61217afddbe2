import { defineMethod } from '../declare.ts'
import { withStateRoot } from '../stateRoots.ts'
import { blockNumberLookup, lenient } from '../paramSpecs.ts'
import { formatHeader } from './eth_getHeaderByHash.ts'

/**
 * erigon_getHeaderByNumber: the block's header object, as eth_getHeaderByNumber renders
 * it, or null (Erigon turbo/jsonrpc erigon_block.go GetHeaderByNumber; Otterscan probes
 * it at start). Local on a fork: a remote go-ethereum-style node serves no erigon_
 * method, so a block below the fork block the devnet does not hold is null.
 */
export const erigon_getHeaderByNumber = defineMethod({
  name: 'erigon_getHeaderByNumber',
  params: [lenient(blockNumberLookup('block'))],
  fork: { kind: 'local' },
  handler: (ctx, [height]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    return block === undefined ? null : withStateRoot(ctx, block, formatHeader(block))
  },
})
