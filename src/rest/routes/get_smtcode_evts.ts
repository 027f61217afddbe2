import type { RestRoute } from '../context.ts'
import { parseHash } from '../params.ts'
import { renderEventRecord } from '../render.ts'
import { toHexRaw } from '../../util/hex.ts'

/** get_smtcode_evts: the event record of one transaction; "" when unknown or pending (§1.5). On a fork, the remote's for its transactions at or below the fork block. */
export const get_smtcode_evts: RestRoute<'/api/v1/smartcode/event/txhash/:hash'> = {
  method: 'GET',
  path: '/api/v1/smartcode/event/txhash/:hash',
  action: 'getsmartcodeeventbyhash',
  fork: { kind: 'transaction', param: 'hash' },
  handle: (ctx, { params }) => {
    const hash = parseHash(params.hash!)
    const found = ctx.chain.transaction(toHexRaw(hash))
    return found === undefined ? '' : renderEventRecord(found.tx, found.record, found.index)
  },
}
