import { defineMethod } from '../declare.ts'

/**
 * anvil_getLastBlockWallTime: the Unix wall time in milliseconds (a JSON number) when
 * the current head was mined, or when the chain was created (started, reset, resumed)
 * if nothing was mined since, as Anvil's `anvil_get_last_block_wall_time` (foundry
 * crates/anvil/src/eth/backend/time.rs): the machine's clock, not the block's
 * timestamp, which time controls move. A revert does not change it.
 */
export const anvil_getLastBlockWallTime = defineMethod({
  name: 'anvil_getLastBlockWallTime',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ctx.chain.lastBlockWallTime,
})
