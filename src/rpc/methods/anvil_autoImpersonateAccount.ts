import { alias, defineMethod } from '../declare.ts'
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

/** hardhat_autoImpersonateAccount: {@link anvil_autoImpersonateAccount} under the Hardhat-style name Anvil also answers (foundry crates/anvil/core/src/eth/mod.rs). */
export const hardhat_autoImpersonateAccount = alias('hardhat_autoImpersonateAccount', anvil_autoImpersonateAccount)
