import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { numberish, optional } from '../paramSpecs.ts'

/**
 * anvil_rollback: refused, -32602 naming the depth. Anvil removes the latest `depth`
 * blocks (foundry crates/anvil/src/eth/api.rs `anvil_rollback`); the chain keeps undo
 * steps only back to live snapshots (src/chain/checkpoints.ts), not per block, so an
 * arbitrary depth cannot be restored. evm_snapshot before the blocks and evm_revert
 * (anvil_revert) to it does the same.
 */
export const anvil_rollback = defineMethod({
  name: 'anvil_rollback',
  params: [optional(numberish('depth'), 1)],
  fork: { kind: 'local' },
  handler: () => {
    throw invalidArgument(0, 'depth: blocks can be undone only back to a snapshot; take one with evm_snapshot and restore it with evm_revert')
  },
})
