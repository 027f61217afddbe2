import { defineMethod } from '../declare.ts'
import { withStateRoot } from '../stateRoots.ts'
import { blockNumberLookup } from '../paramSpecs.ts'
import { formatHeader } from './eth_getHeaderByHash.ts'

/**
 * eth_getHeaderByNumber: the block's header object (go-ethereum
 * internal/ethapi/api.go RPCMarshalHeader: eth_getBlockByNumber's fields without
 * transactions, uncles, size and totalDifficulty), or null. At or below a fork's block,
 * the remote's (rpc/forkPolicy.ts).
 */
export const eth_getHeaderByNumber = defineMethod({
  name: 'eth_getHeaderByNumber',
  params: [blockNumberLookup('block')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'number' },
  handler: (ctx, [height]) => {
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    return block === undefined ? null : withStateRoot(ctx, block, formatHeader(block))
  },
})
