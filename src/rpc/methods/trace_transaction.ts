import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * trace_transaction(hash): the mined EVM transaction's Parity traces
 * (`LocalizedTransactionTrace[]`, rpc/parityTrace.ts; Erigon turbo/jsonrpc
 * trace_filtering.go `Transaction`, Anvil `trace_transaction`), or null for an unknown
 * hash, as Erigon answers. A native transaction has no EVM frames: -32000 `not evm
 * event` (reference §6.2). The trace limits apply. On a fork, a transaction the remote
 * mined at or below the fork block is traced by the remote (rpc/forkPolicy.ts).
 */
export const trace_transaction = defineMethod({
  name: 'trace_transaction',
  params: [hash('hash')],
  fork: { kind: 'transaction', param: 0, check: 'receipt', keep: false },
  handler: async (ctx, [bytes], { scope }) => {
    const found = ctx.chain.transaction(toHexRaw(bytes))
    if (found === undefined) return null
    if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not evm event')
    const { traceMined } = await import('../parityTrace.ts')
    return traceMined(ctx, scope, found)
  },
})
