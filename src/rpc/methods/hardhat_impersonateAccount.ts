import { anvilAlias, defineMethod } from '../declare.ts'
import { anyAddress } from '../paramSpecs.ts'

/** hardhat_impersonateAccount / anvil_impersonateAccount: eth_sendTransaction may send as this address; true. */
export const hardhat_impersonateAccount = defineMethod({
  name: 'hardhat_impersonateAccount',
  params: [anyAddress('address')],
  fork: { kind: 'local' },
  handler: (ctx, [address]) => {
    ctx.controls.impersonate(address)
    return true as const
  },
})

/** anvil_impersonateAccount: {@link hardhat_impersonateAccount} under Anvil's name, answering null as Anvil does. */
export const anvil_impersonateAccount = anvilAlias('anvil_impersonateAccount', hardhat_impersonateAccount)
