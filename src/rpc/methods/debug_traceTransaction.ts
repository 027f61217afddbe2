import type { RpcMethod } from '../context.ts'
import { expectParams, parseHash } from '../params.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * debug_traceTransaction(hash, options?): replays a mined EVM transaction on the state
 * before it in its block, with go-ethereum's struct logger or callTracer
 * (eth/tracers/api.go `TraceTransaction`); changes nothing. A native transaction or
 * an unknown hash is a -32000 error, and so is a trace past its time limit
 * (`execution timeout`, traceConfig.ts `withTraceBudget`).
 */
export const debug_traceTransaction: RpcMethod = async (ctx, params, scope) => {
  const [hash, options] = expectParams(params, 1, 2)
  const key = toHexRaw(parseHash(hash, 0))
  // The tracers load on the first trace, off the start-up path.
  const [{ tracerFromOptions, traceTimeoutOf, withTraceBudget }, { traceTransaction }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/replay.ts')])
  const tracer = tracerFromOptions(options, 1, ctx.limits.traceSizeLimit)
  const timeout = traceTimeoutOf(options, 1, ctx.limits.traceTimeout)
  return withTraceBudget(ctx.limits, scope, timeout, (budget) => traceTransaction(ctx.chain, key, tracer, budget))
}
