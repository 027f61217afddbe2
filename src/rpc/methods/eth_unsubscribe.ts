import type { RpcMethod } from '../context.ts'
import { invalidArgument, RpcError, RpcErrorCode } from '../errors.ts'
import { expectParams } from '../params.ts'
import type { Hex } from '../../util/hex.ts'

/**
 * eth_unsubscribe(id): cancels a subscription of the caller's connection and answers
 * true. An id not live on this connection (another connection's included) is -32000
 * `subscription not found`, as go-ethereum's rpc handler answers. Over HTTP: -32000
 * `notifications not supported`.
 */
export const eth_unsubscribe: RpcMethod = (ctx, params) => {
  const [id] = expectParams(params, 1)
  if (ctx.connection === undefined) throw new RpcError(RpcErrorCode.ServerError, 'notifications not supported')
  if (typeof id !== 'string') throw invalidArgument(0, 'json: cannot unmarshal non-string into Go value of type rpc.ID')
  if (!ctx.subscriptions.unsubscribe(ctx.connection, id.toLowerCase() as Hex)) throw new RpcError(RpcErrorCode.ServerError, 'subscription not found')
  return true
}
