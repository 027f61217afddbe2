import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { callTreeOf, traceEntries } from '../otsTrace.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * ots_traceTransaction: the calls of a mined EVM transaction as a flat list in the order
 * they start, `[{ type, depth, from, to, value, input, output }]` (otterscan
 * docs/custom-jsonrpc.md; Erigon turbo/jsonrpc otterscan_trace_transaction.go;
 * rpc/otsTrace.ts). A native transaction or an unknown hash is -32000, as for
 * debug_traceTransaction, and the trace limits apply. Local on a fork.
 */
export const ots_traceTransaction = defineMethod({
  name: 'ots_traceTransaction',
  params: [hash('hash')],
  fork: { kind: 'local' },
  handler: async (ctx, [bytes], { scope }) => traceEntries(await callTreeOf(ctx, toHexRaw(bytes), scope)),
})
