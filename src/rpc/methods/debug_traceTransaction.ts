import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { forkHistory, remoteReceipt } from '../forkHistory.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'

/**
 * debug_traceTransaction(hash, options?): replays a mined EVM transaction on the state
 * before it in its block, with go-ethereum's struct logger or callTracer
 * (eth/tracers/api.go `TraceTransaction`); changes nothing. A native transaction or
 * an unknown hash is a -32000 error, and so is a trace past its time limit
 * (`execution timeout`, traceConfig.ts `withTraceBudget`). On a fork, a transaction
 * the remote mined at or below the fork block is traced by the remote: the call goes
 * to it as asked (options checked here first), and its answer (not kept) is the answer.
 */
export const debug_traceTransaction: RpcMethod = async (ctx, params, scope) => {
  const [hash, options] = expectParams(params, 1, 2)
  const bytes = parseHash(hash, 0)
  const key = toHexRaw(bytes)
  // The tracers load on the first trace, off the start-up path.
  const [{ tracerFromOptions, traceTimeoutOf, withTraceBudget }, { traceTransaction }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/replay.ts')])
  const tracer = tracerFromOptions(options, 1, ctx.limits.traceSizeLimit)
  const timeout = traceTimeoutOf(options, 1, ctx.limits.traceTimeout)
  const history = forkHistory(ctx.chain)
  if (history !== undefined && ctx.chain.transaction(key) === undefined && remoteReceipt(ctx.chain, bytes) !== null) {
    return history.call('debug_traceTransaction', options === undefined ? [toHex(bytes)] : [toHex(bytes), options])
  }
  return withTraceBudget(ctx.limits, scope, timeout, (budget) => traceTransaction(ctx.chain, key, tracer, budget))
}
