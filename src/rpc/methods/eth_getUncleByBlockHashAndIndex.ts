import { defineMethod } from '../declare.ts'
import { hash, quantity } from '../paramSpecs.ts'

/**
 * eth_getUncleByBlockHashAndIndex: null; the chain has no uncles (reference §6.2), so
 * every index is out of range, and go-ethereum answers null for that and for an unknown
 * block (internal/ethapi/api.go GetUncleByBlockHashAndIndex). On a fork, a block it did
 * not build is the remote's, placed by its header (rpc/forkPolicy.ts).
 */
export const eth_getUncleByBlockHashAndIndex = defineMethod({
  name: 'eth_getUncleByBlockHashAndIndex',
  params: [hash('hash'), quantity('index')],
  fork: { kind: 'block', by: 'hash', param: 0, check: 'header' },
  handler: () => null,
})
