import { defineMethod } from '../declare.ts'
import { hash, json } from '../paramSpecs.ts'
import { RpcError, RpcErrorCode, invalidArgument } from '../errors.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * trace_get(hash, indices): one Parity trace of the mined EVM transaction, as Erigon
 * picks it (turbo/jsonrpc trace_filtering.go `Get`): `indices` holds one index (a number
 * or 0x-quantity) into trace_transaction's list after the transaction's own frame,
 * i.e. index n is the (n + 1)th trace in depth-first order; null for an unknown
 * transaction or index, and for more than one index, which Erigon does not support
 * either. Fork policy and limits as trace_transaction.
 */
export const trace_get = defineMethod({
  name: 'trace_get',
  params: [hash('hash'), json<(number | string)[]>('indices')],
  fork: { kind: 'transaction', param: 0, check: 'receipt', keep: false },
  handler: async (ctx, [bytes, indices], { scope }) => {
    if (!Array.isArray(indices)) throw invalidArgument(1, 'indices: an array of trace indices')
    const path = indices.map((index) => {
      const n = typeof index === 'number' ? index : typeof index === 'string' && /^0x[0-9a-f]+$/i.test(index) ? Number.parseInt(index, 16) : Number.NaN
      if (!Number.isSafeInteger(n) || n < 0) throw invalidArgument(1, `indices: ${JSON.stringify(index)} is not a trace index`)
      return n
    })
    const found = ctx.chain.transaction(toHexRaw(bytes))
    if (found === undefined) return null
    if (found.tx.kind !== 'evm') throw new RpcError(RpcErrorCode.ServerError, 'not evm event')
    const { traceMined } = await import('../parityTrace.ts')
    const traces = await traceMined(ctx, scope, found)
    if (path.length !== 1) return null
    return traces[path[0]! + 1] ?? null
  },
})
