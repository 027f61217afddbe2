import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseHeight } from '../params.ts'
import { toReversedHex } from '../../util/hex.ts'

/** get_blk_hash: the block hash at a height, REST form; 44003 for an unknown height. On a fork, the remote's at or below the fork block. */
export const get_blk_hash: RestRoute<'/api/v1/block/hash/:height'> = {
  method: 'GET',
  path: '/api/v1/block/hash/:height',
  action: 'getblockhash',
  fork: { kind: 'block', by: 'height', param: 'height' },
  handle: (ctx, { params }) => {
    const height = parseHeight(params.height!)
    const block = ctx.chain.blockAt(height)
    if (block === undefined) throw new RestError(RestErrorCode.UnknownBlock)
    return toReversedHex(block.hash)
  },
}
