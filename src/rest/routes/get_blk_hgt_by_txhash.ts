import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseHash } from '../params.ts'
import { toHexRaw } from '../../util/hex.ts'

/** get_blk_hgt_by_txhash: height of the block holding a transaction; 45001 when unknown (§1.5). On a fork, the remote's for its transactions at or below the fork block. */
export const get_blk_hgt_by_txhash: RestRoute<'/api/v1/block/height/txhash/:hash'> = {
  method: 'GET',
  path: '/api/v1/block/height/txhash/:hash',
  action: 'getblockheightbytxhash',
  fork: { kind: 'transaction', param: 'hash' },
  handle: (ctx, { params }) => {
    const hash = parseHash(params.hash!)
    const found = ctx.chain.transaction(toHexRaw(hash))
    if (found === undefined) throw new RestError(RestErrorCode.InternalError)
    return found.block.header.height
  },
}
