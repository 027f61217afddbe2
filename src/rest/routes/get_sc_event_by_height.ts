import type { RestRoute } from '../context.ts'
import { parseHeight } from '../params.ts'
import { renderEventRecord } from '../render.ts'

/** get_sc_event_by_height: one event record per transaction of the block; "" for none or an unknown height (§1.5). On a fork, the remote's at or below the fork block. */
export const get_sc_event_by_height: RestRoute<'/api/v1/smartcode/event/transactions/:height'> = {
  method: 'GET',
  path: '/api/v1/smartcode/event/transactions/:height',
  action: 'getsmartcodeeventbyheight',
  fork: { kind: 'block', by: 'height', param: 'height' },
  handle: (ctx, { params }) => {
    const height = parseHeight(params.height!)
    if (ctx.chain.isPendingEmpty(height)) return ''
    const block = ctx.chain.blockAt(height)
    if (block === undefined || block.transactions.length === 0) return ''
    return block.transactions.map((tx, i) => renderEventRecord(tx, block.records[i]!, i))
  },
}
