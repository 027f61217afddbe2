import type { RestRoute } from '../context.ts'
import { parseHeight } from '../params.ts'
import { renderEventRecord } from '../render.ts'
import { remoteResult, restHistoryAt } from '../forkHistory.ts'

/** get_sc_event_by_height: one event record per transaction of the block; "" for none or an unknown height (§1.5). On a fork, the remote's at or below the fork block. */
export const get_sc_event_by_height: RestRoute<'/api/v1/smartcode/event/transactions/:height'> = {
  method: 'GET',
  path: '/api/v1/smartcode/event/transactions/:height',
  action: 'getsmartcodeeventbyheight',
  handle: (ctx, { params }) => {
    const height = parseHeight(params.height!)
    const history = restHistoryAt(ctx, height)
    if (history !== undefined) return remoteResult(history, `/api/v1/smartcode/event/transactions/${height}`) as ''
    if (ctx.chain.isPendingEmpty(height)) return ''
    const block = ctx.chain.blockAt(height)
    if (block === undefined || block.transactions.length === 0) return ''
    return block.transactions.map((tx, i) => renderEventRecord(tx, block.records[i]!, i))
  },
}
