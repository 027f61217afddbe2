import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseHeight } from '../params.ts'
import { toReversedHex } from '../../util/hex.ts'

/** get_blk_hash: the block hash at a height, REST form; 44003 for an unknown height. */
export const get_blk_hash: RestRoute<'/api/v1/block/hash/:height'> = {
  method: 'GET',
  path: '/api/v1/block/hash/:height',
  action: 'getblockhash',
  handle: (ctx, { params }) => {
    const block = ctx.chain.blockAt(parseHeight(params.height!))
    if (block === undefined) throw new RestError(RestErrorCode.UnknownBlock)
    return toReversedHex(block.hash)
  },
}
