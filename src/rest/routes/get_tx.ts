import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { flag, parseHash } from '../params.ts'
import { renderTransaction } from '../render.ts'
import { toHexRaw } from '../../util/hex.ts'

/** get_tx: transaction JSON with Height, or its raw hex with `raw=1`; 44001 when unknown. On a fork, the remote's for its transactions at or below the fork block. */
export const get_tx: RestRoute<'/api/v1/transaction/:hash'> = {
  method: 'GET',
  path: '/api/v1/transaction/:hash',
  action: 'gettransaction',
  fork: { kind: 'transaction', param: 'hash', raw: true },
  handle: (ctx, { params, query }) => {
    const hash = parseHash(params.hash!)
    const found = ctx.chain.transaction(toHexRaw(hash))
    if (found === undefined) throw new RestError(RestErrorCode.UnknownTransaction)
    return flag(query.raw) ? toHexRaw(found.tx.raw) : renderTransaction(found.tx, found.block.header.height)
  },
}
