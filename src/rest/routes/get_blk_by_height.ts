import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { flag, parseHeight } from '../params.ts'
import { renderBlock, renderRawBlock } from '../render.ts'

/** get_blk_by_height: block JSON, or its raw hex with `raw=1`; 44003 above the tip. */
export const get_blk_by_height: RestRoute<'/api/v1/block/details/height/:height'> = {
  method: 'GET',
  path: '/api/v1/block/details/height/:height',
  action: 'getblockbyheight',
  handle: (ctx, { params, query }) => {
    const block = ctx.chain.blockAt(parseHeight(params.height!))
    if (block === undefined) throw new RestError(RestErrorCode.UnknownBlock)
    return flag(query.raw) ? renderRawBlock(block) : renderBlock(block)
  },
}
