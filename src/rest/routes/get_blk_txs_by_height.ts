import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseHeight } from '../params.ts'
import { toReversedHex } from '../../util/hex.ts'

/** get_blk_txs_by_height: the block's hash, height and transaction hashes; 42002 for an unknown height (§1.5). On a fork, the remote's at or below the fork block. */
export const get_blk_txs_by_height: RestRoute<'/api/v1/block/transactions/height/:height'> = {
  method: 'GET',
  path: '/api/v1/block/transactions/height/:height',
  action: 'getblocktxsbyheight',
  fork: { kind: 'block', by: 'height', param: 'height' },
  handle: (ctx, { params }) => {
    const height = parseHeight(params.height!)
    const block = ctx.chain.blockAt(height)
    if (block === undefined) throw new RestError(RestErrorCode.InvalidParams)
    return {
      Hash: toReversedHex(block.hash),
      Height: block.header.height,
      Transactions: block.transactions.map((tx) => toReversedHex(tx.hash)),
    }
  },
}
