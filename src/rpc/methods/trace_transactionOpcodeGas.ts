import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { toHex, toHexRaw } from '../../util/hex.ts'
import type { RpcOpcodeGas } from '../../core/rpcObjects.ts'

/**
 * trace_transactionOpcodeGas(hash): `{ transactionHash, opcodeGas }`, the gas the
 * mined EVM transaction spent by opcode (evm/tracing/opcodeGasTracer.ts), as reth and
 * Anvil answer it (alloy rpc-types-trace `TransactionOpcodeGas`); null for an unknown
 * hash. A native transaction, or one a native transaction precedes in its block, has
 * no EVM replay and is refused. Under the trace limits; below a fork's block, the
 * remote's.
 */
export const trace_transactionOpcodeGas = defineMethod({
  name: 'trace_transactionOpcodeGas',
  params: [hash('hash')],
  fork: { kind: 'transaction', param: 0, check: 'receipt', keep: false },
  handler: async (ctx, [bytes], { scope }) => {
    const key = toHexRaw(bytes)
    if (ctx.chain.transaction(key) === undefined) return null
    const [{ withTraceBudget }, { traceTransaction }, { OpcodeGasTracer }] = await Promise.all([
      import('../traceConfig.ts'),
      import('../../chain/replay.ts'),
      import('../../evm/tracing/opcodeGasTracer.ts'),
    ])
    const opcodeGas = await withTraceBudget(ctx.limits, scope, ctx.limits.traceTimeout, (budget) => traceTransaction(ctx.chain, key, new OpcodeGasTracer(), budget))
    return { transactionHash: toHex(bytes), opcodeGas: opcodeGas as RpcOpcodeGas[] }
  },
})
