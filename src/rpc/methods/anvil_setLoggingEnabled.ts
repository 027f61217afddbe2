import { defineMethod } from '../declare.ts'
import { boolean } from '../paramSpecs.ts'

/**
 * anvil_setLoggingEnabled: turns the devnet's console.log lines (the `console` option's
 * output) on or off; null (foundry crates/anvil/src/eth/api.rs `anvil_set_logging`).
 * A reset turns them on again.
 */
export const anvil_setLoggingEnabled = defineMethod({
  name: 'anvil_setLoggingEnabled',
  params: [boolean('enabled')],
  fork: { kind: 'local' },
  handler: (ctx, [on]) => {
    ctx.controls.setLoggingEnabled(on)
    return null
  },
})
