import { defineMethod } from '../declare.ts'
import { withStateRoot } from '../stateRoots.ts'
import { hash } from '../paramSpecs.ts'
import { formatBlock } from '../format.ts'
import type { ChainBlock } from '../../chain/block.ts'
import type { RpcHeader } from '../../core/rpcObjects.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * The header object of `block`: eth_getBlockByHash's fields less transactions, uncles,
 * size and totalDifficulty, which go-ethereum's RPCMarshalHeader leaves out
 * (internal/ethapi/api.go).
 */
export function formatHeader(block: ChainBlock): RpcHeader {
  const { transactions: _t, uncles: _u, size: _s, totalDifficulty: _d, ...header } = formatBlock(block, false)
  return header
}

/** eth_getHeaderByHash: the block's header object, or null (go-ethereum internal/ethapi/api.go GetHeaderByHash); on a fork, a block it did not build is the remote's (rpc/forkPolicy.ts). */
export const eth_getHeaderByHash = defineMethod({
  name: 'eth_getHeaderByHash',
  params: [hash('hash')],
  fork: { kind: 'block', by: 'hash', param: 0, check: 'number' },
  handler: (ctx, [bytes]) => {
    const block = ctx.chain.blockByHash(toHexRaw(bytes))
    return block === undefined ? null : withStateRoot(ctx, block, formatHeader(block))
  },
})
