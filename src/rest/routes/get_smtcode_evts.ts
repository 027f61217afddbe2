import type { RestRoute } from '../context.ts'
import { parseHash } from '../params.ts'
import { renderEventRecord } from '../render.ts'
import { toHexRaw } from '../../util/hex.ts'

/** get_smtcode_evts: the event record of one transaction; "" when unknown or pending (§1.5). */
export const get_smtcode_evts: RestRoute<'/api/v1/smartcode/event/txhash/:hash'> = {
  method: 'GET',
  path: '/api/v1/smartcode/event/txhash/:hash',
  action: 'getsmartcodeeventbyhash',
  handle: (ctx, { params }) => {
    const found = ctx.chain.transaction(toHexRaw(parseHash(params.hash!)))
    return found === undefined ? '' : renderEventRecord(found.tx, found.record, found.index)
  },
}
