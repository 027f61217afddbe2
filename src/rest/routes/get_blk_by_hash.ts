import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { flag, parseHash } from '../params.ts'
import { renderBlock, renderRawBlock } from '../render.ts'
import { toHexRaw } from '../../util/hex.ts'

/** get_blk_by_hash: block JSON (or raw hex with `raw=1`) by REST-form hash; 44003 when unknown. On a fork, the remote's for its blocks at or below the fork block. */
export const get_blk_by_hash: RestRoute<'/api/v1/block/details/hash/:hash'> = {
  method: 'GET',
  path: '/api/v1/block/details/hash/:hash',
  action: 'getblockbyhash',
  fork: { kind: 'block', by: 'hash', param: 'hash', raw: true },
  handle: (ctx, { params, query }) => {
    const hash = parseHash(params.hash!)
    const block = ctx.chain.blockByHash(toHexRaw(hash))
    if (block === undefined) throw new RestError(RestErrorCode.UnknownBlock)
    return flag(query.raw) ? renderRawBlock(block) : renderBlock(block)
  },
}
