import { simulationBlock } from '../blockResolution.ts'
import type { RpcMethod } from '../context.ts'
import { expectParams } from '../params.ts'
import { parseCallRequest } from '../callRequest.ts'
import { remoteSimulation } from '../forkHistory.ts'

/**
 * debug_traceCall(call, block?, options?): runs `call` as eth_call does (the block
 * defaults to `latest`; its environment follows the chain's block context, `pending`
 * is the next block's) with go-ethereum's struct logger or callTracer
 * (eth/tracers/api.go `TraceCall`); changes nothing. Stops with -32000 `execution
 * timeout` past its time limit (traceConfig.ts `withTraceBudget`). Below a fork's
 * block, the remote traces it, on its state there (options checked here first; the
 * answer is not kept).
 */
export const debug_traceCall: RpcMethod = async (ctx, params, scope) => {
  const [call, block, options] = expectParams(params, 1, 3)
  const request = parseCallRequest(call, 0)
  const at = block === undefined || block === null ? ctx.chain.height : simulationBlock(ctx, block, 1)
  // The tracers load on the first trace, off the start-up path.
  const [{ tracerFromOptions, traceTimeoutOf, withTraceBudget }, { traceCall }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/replay.ts')])
  const tracer = tracerFromOptions(options, 2, ctx.limits.traceSizeLimit)
  const timeout = traceTimeoutOf(options, 2, ctx.limits.traceTimeout)
  const remote = remoteSimulation(ctx.chain, at)
  if (remote !== undefined) return remote.history.call('debug_traceCall', options === undefined ? [call, remote.block] : [call, remote.block, options])
  return withTraceBudget(ctx.limits, scope, timeout, (budget) => traceCall(ctx.chain, request, at, tracer, budget))
}
