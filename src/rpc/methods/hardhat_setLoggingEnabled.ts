import { defineMethod } from '../declare.ts'
import { boolean } from '../paramSpecs.ts'

/** hardhat_setLoggingEnabled: as anvil_setLoggingEnabled (console.log lines on or off), answering Hardhat's true. */
export const hardhat_setLoggingEnabled = defineMethod({
  name: 'hardhat_setLoggingEnabled',
  params: [boolean('enabled')],
  fork: { kind: 'local' },
  handler: (ctx, [on]) => {
    ctx.controls.setLoggingEnabled(on)
    return true as const
  },
})
