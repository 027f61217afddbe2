import { defineMethod } from '../declare.ts'

/**
 * anvil_getGenesisTime: the first block's timestamp (Unix seconds, a JSON number; on a
 * fork, the fork block's), as Anvil's `anvil_get_genesis_time` (foundry crates/anvil/src/eth/api.rs).
 */
export const anvil_getGenesisTime = defineMethod({
  name: 'anvil_getGenesisTime',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => ctx.chain.timestampAt(ctx.chain.firstHeight),
})
