import { defineMethod } from '../declare.ts'
import { blockNumberLookup, quantity } from '../paramSpecs.ts'

/**
 * eth_getUncleByBlockNumberAndIndex: null; the chain has no uncles (reference §6.2;
 * go-ethereum internal/ethapi/api.go GetUncleByBlockNumberAndIndex answers null out of
 * range). At or below a fork's block, the remote's answer (rpc/forkPolicy.ts).
 */
export const eth_getUncleByBlockNumberAndIndex = defineMethod({
  name: 'eth_getUncleByBlockNumberAndIndex',
  params: [blockNumberLookup('block'), quantity('index')],
  fork: { kind: 'block', by: 'number', param: 0, check: 'header' },
  handler: () => null,
})
