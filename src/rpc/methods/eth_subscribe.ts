import type { RpcMethod } from '../context.ts'
import { invalidArgument, RpcError, RpcErrorCode } from '../errors.ts'
import { parseLogCriteria } from '../logQuery.ts'
import { expectParams } from '../params.ts'

/**
 * eth_subscribe(kind[, options]): starts a push subscription on the caller's
 * connection and returns its id (go-ethereum's pub/sub, geth docs "Real-time
 * events"). `newHeads` and `newPendingTransactions` take no options; `logs` takes
 * `{ address, topics }` with eth_getLogs' matching rules. Over HTTP: -32000
 * `notifications not supported` (reference §6.1); an unknown kind: -32601 as geth.
 */
export const eth_subscribe: RpcMethod = (ctx, params) => {
  const [kind, options] = expectParams(params, 1, 2)
  if (ctx.connection === undefined) throw new RpcError(RpcErrorCode.ServerError, 'notifications not supported')
  if (typeof kind !== 'string') throw invalidArgument(0, 'expected subscription name as first argument')
  switch (kind) {
    case 'newHeads':
    case 'newPendingTransactions':
      if (options !== undefined && options !== null && options !== false) throw invalidArgument(1, `${kind} takes no options`)
      return ctx.subscriptions.subscribe(ctx.connection, kind)
    case 'logs':
      return ctx.subscriptions.subscribe(ctx.connection, 'logs', parseLogCriteria(ctx, options ?? {}, 1))
    default:
      throw new RpcError(RpcErrorCode.MethodNotFound, `no "${kind}" subscription in eth namespace`)
  }
}
