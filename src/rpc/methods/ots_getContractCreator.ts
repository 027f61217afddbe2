import { defineMethod } from '../declare.ts'
import { address } from '../paramSpecs.ts'
import { creatorOf } from '../otsCreator.ts'
import { toHexRaw } from '../../util/hex.ts'

/**
 * ots_getContractCreator(address): `{ hash, creator }`, the transaction that created
 * the contract and the address that ran the creation (the sender, or the contract whose
 * CREATE or CREATE2 made it), or null for an address no mined transaction created
 * (otterscan docs/custom-jsonrpc.md; Anvil crates/anvil/src/eth/otterscan/api.rs: the
 * latest creation). A top-level creation comes from the address index; a creation by
 * a contract is found by tracing, newest first, the transactions the index holds for
 * the address (rpc/otsCreator.ts). Local: on a fork, the remote's contracts answer null.
 */
export const ots_getContractCreator = defineMethod({
  name: 'ots_getContractCreator',
  params: [address('address')],
  fork: { kind: 'local' },
  handler: (ctx, [a], { scope }) => creatorOf(ctx, toHexRaw(a), scope),
})
