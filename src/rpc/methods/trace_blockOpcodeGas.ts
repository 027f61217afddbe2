import { defineMethod } from '../declare.ts'
import { blockNumberOrHash } from '../paramSpecs.ts'
import { toHex } from '../../util/hex.ts'
import type { RpcTransactionOpcodeGas } from '../../core/rpcObjects.ts'
import { blockOf } from './debug_getRawHeader.ts'

/**
 * trace_blockOpcodeGas(block): `{ blockHash, blockNumber, transactions }`, each EVM
 * transaction's gas by opcode in block order, as trace_transactionOpcodeGas gives it
 * (reth's and Anvil's, alloy rpc-types-trace `BlockOpcodeGas`; `blockNumber` a JSON
 * number); null for an unknown block. Native transactions have no EVM trace and are
 * left out; an EVM transaction after one cannot be replayed, and the call is refused.
 * Under the trace limits; at or below a fork's block, the remote's.
 */
export const trace_blockOpcodeGas = defineMethod({
  name: 'trace_blockOpcodeGas',
  params: [blockNumberOrHash('block')],
  fork: { kind: 'block', by: 'numberOrHash', param: 0, check: 'header', keep: false },
  handler: async (ctx, [at], { scope }) => {
    const block = blockOf(ctx, at)
    if (block === undefined) return null
    const [{ withTraceBudget }, { traceBlock }, { OpcodeGasTracer }, { TraceUnavailableError }] = await Promise.all([
      import('../traceConfig.ts'),
      import('../../chain/replay.ts'),
      import('../../evm/tracing/opcodeGasTracer.ts'),
      import('../../evm/tracing/tracer.ts'),
    ])
    const entries = await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => traceBlock(ctx.chain, block, () => new OpcodeGasTracer(), budget))
    const transactions: RpcTransactionOpcodeGas[] = entries.map((entry) => {
      if ('error' in entry) throw new TraceUnavailableError(`transaction ${entry.txHash}: ${entry.error}`)
      return { transactionHash: entry.txHash, opcodeGas: entry.result as RpcTransactionOpcodeGas['opcodeGas'] }
    })
    return { blockHash: toHex(block.hash), blockNumber: block.header.height, transactions }
  },
})
