import { defineMethod } from '../declare.ts'
import { hash, json, optional } from '../paramSpecs.ts'
import type { RpcTraceOptions } from '../../core/rpcObjects.ts'
import type { BlockTrace } from '../schema.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * debug_traceBlockByHash(hash, options?): debug_traceBlockByNumber's answer
 * (`[{ txHash, result }]`, go-ethereum eth/tracers/api.go `TraceBlockByHash`) for the
 * block of that hash; an unknown hash is -32000 `block 0x… not found` (geth's). On a
 * fork, a block the remote mined at or below the fork block is traced by the remote
 * (rpc/forkPolicy.ts; its answer not kept).
 */
export const debug_traceBlockByHash = defineMethod({
  name: 'debug_traceBlockByHash',
  params: [hash('hash'), optional(json<RpcTraceOptions>('options'))],
  fork: { kind: 'block', by: 'hash', param: 0, check: 'header', keep: false },
  handler: async (ctx, [bytes, options], { scope }) => {
    const [{ tracerFromOptions, traceTimeoutOf, withTraceBudget }, { traceBlock }, { TraceUnavailableError }] = await Promise.all([
      import('../traceConfig.ts'),
      import('../../chain/replay.ts'),
      import('../../evm/tracing/tracer.ts'),
    ])
    const block = ctx.chain.blockByHash(toHexRaw(bytes))
    if (block === undefined) throw new TraceUnavailableError(`block 0x${toHexRaw(bytes)} not found`)
    tracerFromOptions(options, 1, ctx.limits.traceSizeLimit)
    const timeout = traceTimeoutOf(options, 1, ctx.limits.traceTimeout)
    return withTraceBudget(ctx.limits, scope, timeout, (budget) => traceBlock(ctx.chain, block, () => tracerFromOptions(options, 1, ctx.limits.traceSizeLimit), budget) as Promise<BlockTrace>)
  },
})
