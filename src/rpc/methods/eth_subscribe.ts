import { defineMethod, type ParamSpec } from '../declare.ts'
import { invalidArgument, RpcError, RpcErrorCode } from '../errors.ts'
import { parseLogCriteria, type LogCriteria } from '../logQuery.ts'
import { json, optional, param } from '../paramSpecs.ts'
import type { SubscriptionKind } from '../subscriptions.ts'
import type { RpcContext } from '../context.ts'
import type { RpcLogFilter } from '../../core/rpcObjects.ts'

/**
 * eth_subscribe(kind[, options]): starts a push subscription on the caller's
 * connection and returns its id (go-ethereum's pub/sub, geth docs "Real-time
 * events"). `newHeads` and `newPendingTransactions` take no options; `logs` takes
 * `{ address, topics }` with eth_getLogs' matching rules. Over HTTP: -32000
 * `notifications not supported` (reference §6.1); an unknown kind: -32601 as geth.
 */
export const eth_subscribe = defineMethod({
  name: 'eth_subscribe',
  params: [subscriptionKind('kind'), optional(json<SubscriptionOptions>('options'))],
  fork: { kind: 'local' },
  handler: (ctx, [kind, options]) => {
    // The kind's spec refused a call without a connection.
    const connection = ctx.connection!
    return ctx.subscriptions.subscribe(
      connection,
      kind,
      named(() => criteriaOf(ctx, kind, options)),
    )
  },
})

/** What the options position takes: a `logs` subscription's filter (null, or false as some clients send, for none). */
type SubscriptionOptions = Pick<RpcLogFilter, 'address' | 'topics'> | false

/** The criteria of a `logs` subscription (eth_getLogs' rules); none for the other kinds, which take no options. */
function criteriaOf(ctx: RpcContext, kind: SubscriptionKind, options: unknown): LogCriteria | undefined {
  if (kind === 'logs') return parseLogCriteria(ctx, options ?? {}, 1)
  if (options !== undefined && options !== false) throw invalidArgument(1, `${kind} takes no options`)
  return undefined
}

/**
 * The subscription's kind. Checks the connection first: go-ethereum refuses a
 * subscription over HTTP before it reads the arguments (rpc/handler.go
 * `handleSubscribe`), so a bad kind over HTTP is still `notifications not supported`.
 */
function subscriptionKind(name: string): ParamSpec<SubscriptionKind, SubscriptionKind> {
  return param(name, (value, index, ctx) => {
    if (ctx.connection === undefined) throw new RpcError(RpcErrorCode.ServerError, 'notifications not supported')
    if (typeof value !== 'string') throw invalidArgument(index, 'expected subscription name as first argument')
    if (value !== 'newHeads' && value !== 'newPendingTransactions' && value !== 'logs') {
      throw new RpcError(RpcErrorCode.MethodNotFound, `no "${value}" subscription in eth namespace`)
    }
    return value
  })
}

/**
 * The result of `run`, whose -32602 about the options names them in `data.param`, as
 * the dispatcher names a parameter its spec refused (rpc/dispatch.ts): the options are
 * read by the kind, after the specs.
 */
function named<T>(run: () => T): T {
  try {
    return run()
  } catch (err) {
    if (err instanceof RpcError && err.code === RpcErrorCode.InvalidParams && err.data === undefined) {
      throw new RpcError(err.code, err.message, { data: { param: 'options' }, cause: err.cause })
    }
    throw err
  }
}
