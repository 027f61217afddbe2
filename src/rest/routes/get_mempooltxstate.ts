import type { RestRoute } from '../context.ts'
import { RestError, RestErrorCode } from '../errors.ts'
import { parseHash } from '../params.ts'
import { toHexRaw } from '../../util/hex.ts'

/** get_mempooltxstate: the verification states of a pooled transaction and its raw hex; 44001 when not in the pool (§8). */
export const get_mempooltxstate: RestRoute<'/api/v1/mempool/txstate/:hash'> = {
  method: 'GET',
  path: '/api/v1/mempool/txstate/:hash',
  action: 'getmempooltxstate',
  fork: { kind: 'local' },
  handle: (ctx, { params }) => {
    const hash = toHexRaw(parseHash(params.hash!))
    const pending = ctx.chain.mempool.get(hash) ?? ctx.chain.mempool.getNative(hash)
    if (pending === undefined) throw new RestError(RestErrorCode.UnknownTransaction)
    return {
      State: [
        { Height: 0, Type: 0, ErrCode: 0 },
        { Height: ctx.chain.height, Type: 1, ErrCode: 0 },
      ],
      Raw: toHexRaw(pending.raw),
    }
  },
}
