import { anvilAlias, defineMethod } from '../declare.ts'
import { anyAddress } from '../paramSpecs.ts'

/** hardhat_stopImpersonatingAccount / anvil_stopImpersonatingAccount: ends an impersonation; true. */
export const hardhat_stopImpersonatingAccount = defineMethod({
  name: 'hardhat_stopImpersonatingAccount',
  params: [anyAddress('address')],
  fork: { kind: 'local' },
  handler: (ctx, [address]) => {
    ctx.controls.stopImpersonating(address)
    return true as const
  },
})

/** anvil_stopImpersonatingAccount: {@link hardhat_stopImpersonatingAccount} under Anvil's name, answering null as Anvil does. */
export const anvil_stopImpersonatingAccount = anvilAlias('anvil_stopImpersonatingAccount', hardhat_stopImpersonatingAccount)
