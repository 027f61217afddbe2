import { defineMethod } from '../declare.ts'
import { boolean } from '../paramSpecs.ts'

/**
 * anvil_autoImpersonateAccount: while `enabled`, eth_sendTransaction sends from any
 * address without its key (as if each were impersonated); null. Source: foundry
 * crates/anvil/src/eth/api.rs `anvil_auto_impersonate_account`.
 */
export const anvil_autoImpersonateAccount = defineMethod({
  name: 'anvil_autoImpersonateAccount',
  params: [boolean('enabled')],
  fork: { kind: 'local' },
  handler: (ctx, [on]) => {
    ctx.controls.setAutoImpersonate(on)
    return null
  },
})
