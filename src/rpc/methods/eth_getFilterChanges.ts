import { defineMethod } from '../declare.ts'
import { filterId } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import type { Hash, RpcLog } from '../../core/rpcObjects.ts'

/**
 * eth_getFilterChanges: what the filter saw since it was last polled. Unknown or
 * expired id: -32000 "filter not found". Local on a fork: a filter sees only blocks
 * mined after it was installed, which are the fork's own.
 */
export const eth_getFilterChanges = defineMethod({
  name: 'eth_getFilterChanges',
  params: [filterId('id')],
  fork: { kind: 'local' },
  handler: (ctx, [id]) => {
    const filter = ctx.filters.get(id)
    if (filter === undefined) throw new RpcError(RpcErrorCode.ServerError, 'filter not found')
    return ctx.filters.changes(ctx.chain, filter) as Hash[] | RpcLog[]
  },
})
