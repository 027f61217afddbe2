import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { flag, parseHeight } from '../params.ts'
import { renderBlock, renderRawBlock } from '../render.ts'
import { remoteResult, restHistoryAt } from '../forkHistory.ts'
import { blockPath } from '../../chain/forkBlockTree.ts'

/** get_blk_by_height: block JSON, or its raw hex with `raw=1`; 44003 above the tip. On a fork, the remote's at or below the fork block (rest/forkHistory.ts). */
export const get_blk_by_height: RestRoute<'/api/v1/block/details/height/:height'> = {
  method: 'GET',
  path: '/api/v1/block/details/height/:height',
  action: 'getblockbyheight',
  handle: (ctx, { params, query }) => {
    const height = parseHeight(params.height!)
    const history = restHistoryAt(ctx, height)
    if (history !== undefined) return remoteResult(history, `${blockPath(height)}${flag(query.raw) ? '?raw=1' : ''}`) as string
    const block = ctx.chain.blockAt(height)
    if (block === undefined) throw new RestError(RestErrorCode.UnknownBlock)
    return flag(query.raw) ? renderRawBlock(block) : renderBlock(block)
  },
}
