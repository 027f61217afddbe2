import { defineMethod } from '../declare.ts'
import { hash } from '../paramSpecs.ts'
import { callTreeOf, internalOperations } from '../otsTrace.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * ots_getInternalOperations: the value transfers and contract creations inside a mined
 * EVM transaction, `[{ type, from, to, value }]` in the order they start, the
 * transaction's own frame included as Anvil lists it (otterscan docs/custom-jsonrpc.md;
 * rpc/otsTrace.ts). The chain's fee is no operation. A native transaction or an unknown
 * hash is -32000, as for debug_traceTransaction, and the trace limits apply. Local on
 * a fork.
 */
export const ots_getInternalOperations = defineMethod({
  name: 'ots_getInternalOperations',
  params: [hash('hash')],
  fork: { kind: 'local' },
  handler: async (ctx, [bytes], { scope }) => internalOperations(await callTreeOf(ctx, toHexRaw(bytes), scope)),
})
