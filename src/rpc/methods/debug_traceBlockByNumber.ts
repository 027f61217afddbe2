import { defineMethod } from '../declare.ts'
import { blockNumberLookup, json, optional } from '../paramSpecs.ts'
import type { RpcTraceOptions } from '../../core/rpcObjects.ts'
import type { BlockTrace } from '../schema.ts'

/**
 * debug_traceBlockByNumber(block, options?): replays every EVM transaction of the
 * block on the state before it, each with a fresh tracer of the options (as
 * debug_traceTransaction's), and answers `[{ txHash, result }]` in block order
 * (go-ethereum eth/tracers/api.go `TraceBlockByNumber`, `txTraceResult`; a transaction
 * after a native one has `error` instead: chain/replay.ts `traceBlock`). Changes
 * nothing; the trace limits (size per tracer, time, the batch's budget) are
 * debug_traceTransaction's. An unknown block is -32000 `block not found` (geth
 * names the number, `block #N not found`; the lookup spec leaves none for a height
 * above the tip). On a fork, a block at or below the fork block is traced by the remote
 * (rpc/forkPolicy.ts; its answer not kept), the options passed as given.
 */
export const debug_traceBlockByNumber = defineMethod({
  name: 'debug_traceBlockByNumber',
  params: [blockNumberLookup('block'), optional(json<RpcTraceOptions>('options'))],
  fork: { kind: 'block', by: 'number', param: 0, check: 'header', keep: false },
  handler: async (ctx, [height, options], { scope }) => {
    const [{ tracerFromOptions, traceTimeoutOf, withTraceBudget }, { traceBlock }, { TraceUnavailableError }] = await Promise.all([
      import('../traceConfig.ts'),
      import('../../chain/replay.ts'),
      import('../../evm/tracing/tracer.ts'),
    ])
    const block = height === undefined ? undefined : ctx.chain.blockAt(height)
    if (block === undefined) throw new TraceUnavailableError(height === undefined ? 'block not found' : `block #${height} not found`)
    // Options checked once, before any replay: a bad one refuses the call, not each transaction.
    tracerFromOptions(options, 1, ctx.limits.traceSizeLimit)
    const timeout = traceTimeoutOf(options, 1, ctx.limits.traceTimeout)
    return withTraceBudget(ctx.limits, scope, timeout, (budget) => traceBlock(ctx.chain, block, () => tracerFromOptions(options, 1, ctx.limits.traceSizeLimit), budget) as Promise<BlockTrace>)
  },
})
