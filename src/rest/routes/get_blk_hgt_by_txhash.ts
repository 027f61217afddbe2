import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseHash } from '../params.ts'
import { toHexRaw } from '../../util/hex.ts'

/** get_blk_hgt_by_txhash: height of the block holding a transaction; 45001 when unknown (§1.5). */
export const get_blk_hgt_by_txhash: RestRoute<'/api/v1/block/height/txhash/:hash'> = {
  method: 'GET',
  path: '/api/v1/block/height/txhash/:hash',
  action: 'getblockheightbytxhash',
  handle: (ctx, { params }) => {
    const found = ctx.chain.transaction(toHexRaw(parseHash(params.hash!)))
    if (found === undefined) throw new RestError(RestErrorCode.InternalError)
    return found.block.header.height
  },
}
