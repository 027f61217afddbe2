import { defineMethod, type ParamSpec } from '../declare.ts'
import { invalidArgument, RpcError, RpcErrorCode } from '../errors.ts'
import { param } from '../paramSpecs.ts'
import type { Hex } from '../../util/hex.ts'

/**
 * eth_unsubscribe(id): cancels a subscription of the caller's connection and answers
 * true. An id not live on this connection (another connection's included) is -32000
 * `subscription not found`, as go-ethereum's rpc handler answers. Over HTTP: -32000
 * `notifications not supported`.
 */
export const eth_unsubscribe = defineMethod({
  name: 'eth_unsubscribe',
  params: [subscriptionId('id')],
  fork: { kind: 'local' },
  handler: (ctx, [id]) => {
    // The id's spec refused a call without a connection.
    if (!ctx.subscriptions.unsubscribe(ctx.connection!, id)) throw new RpcError(RpcErrorCode.ServerError, 'subscription not found')
    return true as const
  },
})

/** A subscription id, lower-cased as the subscriptions key them. Over HTTP, `notifications not supported` before the id is read. */
function subscriptionId(name: string): ParamSpec<string, Hex> {
  return param(name, (value, index, ctx) => {
    if (ctx.connection === undefined) throw new RpcError(RpcErrorCode.ServerError, 'notifications not supported')
    if (typeof value !== 'string') throw invalidArgument(index, 'json: cannot unmarshal non-string into Go value of type rpc.ID')
    return value.toLowerCase() as Hex
  })
}
