import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { json } from '../paramSpecs.ts'

/**
 * anvil_reorg: refused, -32602 naming the options. Anvil replaces the latest `depth`
 * blocks with new ones holding `tx_block_pairs` (foundry crates/anvil/src/eth/api.rs
 * `anvil_reorg`); the chain keeps undo steps only back to live snapshots
 * (src/chain/checkpoints.ts), not per block, and its blocks are final as the node's
 * are (one validator). evm_snapshot, evm_revert and new transactions do the same.
 */
export const anvil_reorg = defineMethod({
  name: 'anvil_reorg',
  params: [json<{ depth: number; tx_block_pairs: unknown[] }>('options')],
  fork: { kind: 'local' },
  handler: () => {
    throw invalidArgument(0, 'options: blocks can be undone only back to a snapshot; take one with evm_snapshot, restore it with evm_revert and send the new transactions')
  },
})
