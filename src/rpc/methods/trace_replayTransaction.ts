import { defineMethod } from '../declare.ts'
import { hash, json } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode } from '../errors.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * trace_replayTransaction(hash, traceTypes): Parity's `TraceResults` of the mined EVM
 * transaction (rpc/parityTrace.ts `replayMined`; Erigon turbo/jsonrpc trace_adhoc.go
 * `ReplayTransaction`): `output`, and `trace` and `stateDiff` as `traceTypes` asks
 * (`vmTrace` refused with -32602). An unknown hash is -32000 `transaction not found`;
 * a native transaction -32000 `not evm event`. The trace limits apply. On a fork, a
 * transaction the remote mined at or below the fork block is replayed by the remote
 * (rpc/forkPolicy.ts).
 */
export const trace_replayTransaction = defineMethod({
  name: 'trace_replayTransaction',
  params: [hash('hash'), json<('trace' | 'stateDiff' | 'vmTrace')[]>('traceTypes')],
  fork: { kind: 'transaction', param: 0, check: 'receipt', keep: false },
  handler: async (ctx, [bytes, traceTypes], { scope }) => {
    const { parseTraceTypes, replayMined } = await import('../parityTrace.ts')
    const types = parseTraceTypes(traceTypes, 1)
    const found = ctx.chain.transaction(toHexRaw(bytes))
    if (found === undefined) throw new RpcError(RpcErrorCode.ServerError, 'transaction not found')
    if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not evm event')
    return replayMined(ctx, scope, found, types)
  },
})
