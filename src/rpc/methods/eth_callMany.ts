import { defineMethod } from '../declare.ts'
import { optional, param } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { stateOverrides } from '../overrides.ts'
import { parseBundles, parseStateContext, type StateContext } from '../callMany.ts'
import type { SimulatedBlockInput, SimulatedCall } from '../../chain/simulateBlocks.ts'
import { decodeRevertReason } from '../../evm/revertReason.ts'
import { describeValue } from '../../errors/describe.ts'
import type { RpcCallManyBundle, RpcCallManyResult, RpcStateContext } from '../../core/rpcObjects.ts'
import { toHex } from '../../util/hex.ts'

/** A call's answer: its return data, or `execution reverted[: reason]` / the EVM error. */
export function callManyResult({ outcome }: SimulatedCall): RpcCallManyResult {
  if (outcome.status === 1) return { value: toHex(outcome.returnValue) }
  if (outcome.error?.kind !== 'revert') return { error: outcome.error?.message ?? 'execution failed' }
  const reason = decodeRevertReason(outcome.returnValue)
  return { error: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}` }
}

/**
 * eth_callMany(bundles, stateContext?, stateOverride?, timeoutMilliSeconds?): Erigon's
 * bundles of calls (turbo/jsonrpc eth_callMany.go; alloy `Bundle` / `StateContext`, as
 * Anvil serves it), run in order on one throw-away overlay (chain/simulateBlocks.ts):
 * each call sees the calls before it, in its bundle and in earlier bundles. The state
 * is block `stateContext.blockNumber`'s (default latest), or with
 * `transactionIndex` n the state before that block after its first n transactions (-1:
 * all), in that block's environment; each bundle's `blockOverride` (Erigon's
 * `blockNumber`, `timestamp`, `coinbase`, `difficulty`, `gasLimit`, `baseFee`, or alloy's
 * names) changes its block alone; `stateOverride` (go-ethereum's set) is written before
 * the first bundle. Answers per bundle per call `{ value }` or `{ error }`. As
 * eth_call: no nonce checks, gas price 0 unless given; a sender that cannot pay value
 * and gas refuses the whole request (-32000). Under the trace time limit
 * (`timeoutMilliSeconds` within it). Below a fork's block the devnet holds no state to
 * run on, and the call is refused.
 */
export const eth_callMany = defineMethod({
  name: 'eth_callMany',
  params: [
    param<RpcCallManyBundle[], SimulatedBlockInput[]>('bundles', parseBundles),
    optional(param<RpcStateContext, StateContext>('stateContext', parseStateContext), (ctx): StateContext => ({ at: ctx.chain.height, transactionIndex: undefined })),
    optional(stateOverrides('stateOverride'), undefined),
    optional(
      param<number, number>('timeoutMilliSeconds', (value, index) => {
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw invalidArgument(index, `timeoutMilliSeconds: expected a positive integer, got ${describeValue(value)}`)
        return value
      }),
      undefined,
    ),
  ],
  fork: { kind: 'local' },
  handler: async (ctx, [bundles, context, state, timeout], { scope }): Promise<RpcCallManyResult[][]> => {
    const forkHeight = ctx.chain.fork?.history?.height
    if (forkHeight !== undefined && context.at !== 'pending' && context.at < forkHeight) {
      throw new RpcError(RpcErrorCode.ServerError, `stateContext.blockNumber ${context.at} is below the fork block ${forkHeight}: the fork holds no state there`)
    }
    const [{ withTraceBudget }, { simulateBlocks }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/simulateBlocks.ts')])
    const blocks = state === undefined ? bundles : [{ ...bundles[0]!, state }, ...bundles.slice(1)]
    const limit = Math.min(timeout ?? ctx.limits.traceTimeout, ctx.limits.traceTimeout)
    const answer = await withTraceBudget(ctx.limits, scope, limit, (budget) =>
      simulateBlocks(ctx.chain, context.at, blocks, { validation: false, chainId: BigInt(ctx.chainId), sameBlock: true, transactionIndex: context.transactionIndex }, budget),
    )
    if ('refused' in answer) throw new RpcError(answer.refused.code === -32602 ? -32602 : RpcErrorCode.ServerError, answer.refused.message)
    return answer.blocks.map((block) => block.calls.map(callManyResult))
  },
})
