import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { flag, parseHeight } from '../params.ts'
import { renderBlock, renderRawBlock } from '../render.ts'

/** get_blk_by_height: block JSON, or its raw hex with `raw=1`; 44003 above the tip. On a fork, the remote's at or below the fork block (rest/forkPolicy.ts). */
export const get_blk_by_height: RestRoute<'/api/v1/block/details/height/:height'> = {
  method: 'GET',
  path: '/api/v1/block/details/height/:height',
  action: 'getblockbyheight',
  fork: { kind: 'block', by: 'height', param: 'height', raw: true },
  handle: (ctx, { params, query }) => {
    const height = parseHeight(params.height!)
    const block = ctx.chain.blockAt(height)
    if (block === undefined) throw new RestError(RestErrorCode.UnknownBlock)
    return flag(query.raw) ? renderRawBlock(block) : renderBlock(block)
  },
}
