import { defineMethod } from '../declare.ts'
import { optional, param, simulationBlock } from '../paramSpecs.ts'
import { RpcError } from '../errors.ts'
import { parseSimulateOptions, type SimulateOptions } from '../simulate.ts'
import type { RpcSimulateOptions, RpcSimulatedBlock } from '../../core/rpcObjects.ts'
import type { SimulationBlock } from '../../chain/chainTypes.ts'

/**
 * eth_simulateV1(opts, block?): execution-apis' multi-block simulation, as go-ethereum
 * answers it (internal/ethapi/simulate.go): `opts.blockStateCalls` run in order on the
 * state of `block` (default latest), each block after its `stateOverrides` and under
 * its `blockOverrides`, each call a legacy transaction whose writes later calls and
 * blocks see; nothing outlives the request (chain/simulateBlocks.ts). Answers one
 * block object per simulated block (gaps in the numbers filled with empty blocks) with
 * `calls`: return data, logs, gas used, status, error (-32000 revert with its data,
 * -32015 another EVM error). `validation` checks nonces, the sender being an EOA, a
 * base fee override and the block's gas limit. `traceTransfers`: this chain emits a
 * gas-token Transfer log for every movement of the gas token (reference §6.4), so the
 * logs always carry them, flag or not; go-ethereum's 0xeeee… pseudo-logs are not added.
 * `returnFullTransactions`: transaction objects instead of hashes. Refusals carry the
 * spec's codes (-38010 to -38026); the chain's rules hold (legacy fields only, the
 * 6,000,000 gas cap per transaction). Under the trace time limit. At or below a fork's
 * block, the remote runs it.
 */
export const eth_simulateV1 = defineMethod({
  name: 'eth_simulateV1',
  params: [param<RpcSimulateOptions, SimulateOptions>('opts', parseSimulateOptions), optional(simulationBlock('block'), (ctx): SimulationBlock => ctx.chain.height)],
  fork: { kind: 'simulation', param: 1 },
  handler: async (ctx, [opts, at], { scope }): Promise<RpcSimulatedBlock[]> => {
    const [{ withTraceBudget }, { simulateBlocks }, { formatSimulatedBlock }] = await Promise.all([import('../traceConfig.ts'), import('../../chain/simulateBlocks.ts'), import('../simulate.ts')])
    const answer = await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) =>
      simulateBlocks(ctx.chain, at, opts.blocks, { validation: opts.validation, chainId: BigInt(ctx.chainId) }, budget),
    )
    if ('refused' in answer) throw new RpcError(answer.refused.code, answer.refused.message)
    return answer.blocks.map((block) => formatSimulatedBlock(block, opts.returnFullTransactions, ctx.chain.executor.hasBaseFee))
  },
})
