import { defineMethod } from '../declare.ts'
import { anyAddress, quantity } from '../paramSpecs.ts'

/**
 * anvil_setERC20Allowance(owner, spender, token, amount): makes the token's
 * `allowance(owner, spender)` answer `amount`, writing the storage slot the getter
 * reads (found as anvil_dealERC20 finds it; foundry crates/anvil/src/eth/api.rs
 * `anvil_set_erc20_allowance`); null. The chain's own tokens keep allowances in native
 * state, so for them it is refused (-32000): send an approve transaction instead.
 */
export const anvil_setERC20Allowance = defineMethod({
  name: 'anvil_setERC20Allowance',
  params: [anyAddress('owner'), anyAddress('spender'), anyAddress('token'), quantity('amount')],
  fork: { kind: 'local' },
  handler: async (ctx, [owner, spender, token, amount]) => {
    await ctx.controls.setErc20Allowance(token, owner, spender, amount)
    return null
  },
})
