import { defineMethod } from '../declare.ts'

/**
 * ots_getApiLevel: 8, the Otterscan API level served (otterscan docs/custom-jsonrpc.md;
 * Otterscan refuses a node below 8 at start). A JSON number, as Erigon and Anvil answer.
 */
export const ots_getApiLevel = defineMethod({
  name: 'ots_getApiLevel',
  params: [],
  fork: { kind: 'local' },
  handler: () => 8,
})
