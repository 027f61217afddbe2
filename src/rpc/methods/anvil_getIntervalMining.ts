import { defineMethod } from '../declare.ts'

/**
 * anvil_getIntervalMining: the interval-mining period in whole seconds, or null when
 * blocks are not mined on a timer (Anvil's `Option<u64>`, foundry crates/anvil/src/eth/api.rs
 * `anvil_get_interval_mining`). A period set in milliseconds (evm_setIntervalMining) is
 * rounded down to seconds.
 */
export const anvil_getIntervalMining = defineMethod({
  name: 'anvil_getIntervalMining',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => {
    const ms = ctx.controls.intervalMining
    return ms === 0 ? null : Math.floor(ms / 1000)
  },
})
