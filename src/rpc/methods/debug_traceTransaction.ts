import { defineMethod } from '../declare.ts'
import { hash, json, optional } from '../paramSpecs.ts'
import type { RpcTraceOptions } from '../../core/rpcObjects.ts'
import type { Trace } from '../schema.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * debug_traceTransaction(hash, options?): replays a mined EVM transaction on the state
 * before it in its block, with the tracer its options name (the tracer registry,
 * rpc/traceConfig.ts: go-ethereum's callTracer) or else the struct logger
 * (eth/tracers/api.go `TraceTransaction`); changes nothing. A native transaction or an
 * unknown hash is a -32000 error, and so is a trace past its time limit
 * (`execution timeout`, traceConfig.ts `withTraceBudget`). On a fork, a transaction
 * the remote mined at or below the fork block is traced by the remote (rpc/forkPolicy.ts):
 * the call goes to it with the options as given, which it checks against its own
 * tracers, and its answer (not kept) is the answer.
 *
 * The options are parsed in the handler, not by their spec, so that the tracers load
 * on the first trace, off the start-up path.
 */
export const debug_traceTransaction = defineMethod({
  name: 'debug_traceTransaction',
  params: [hash('hash'), optional(json<RpcTraceOptions>('options'))],
  fork: { kind: 'transaction', param: 0, check: 'receipt', keep: false },
  handler: async (ctx, [bytes, options], { scope }) => {
    const [{ tracerFromOptions, traceTimeoutOf, withTraceBudget }, { traceTransaction }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/replay.ts')])
    const tracer = tracerFromOptions(options, 1, ctx.limits.traceSizeLimit)
    const timeout = traceTimeoutOf(options, 1, ctx.limits.traceTimeout)
    // The tracer's result is the registry's type for the tracer named (core/rpcObjects.ts RpcTracers), one of Trace's.
    return withTraceBudget(ctx.limits, scope, timeout, (budget) => traceTransaction(ctx.chain, toHexRaw(bytes), tracer, budget) as Promise<Trace>)
  },
})
