import { alias, defineMethod } from '../declare.ts'
import { anyAddress, quantity } from '../paramSpecs.ts'

/**
 * anvil_dealERC20(owner, token, amount): makes the token's `balanceOf(owner)` answer
 * `amount` (base units), writing the storage slot the getter reads, found by tracing
 * it, as Anvil finds it from an access list (foundry crates/anvil/src/eth/api.rs
 * `anvil_deal_erc20`); null. On the chain's gas token it sets the account's gas
 * balance (wei, what eth_getBalance shows), on the main token its main balance (9
 * decimals). A token whose getter reads no slot that holds it is -32000 naming it.
 */
export const anvil_dealERC20 = defineMethod({
  name: 'anvil_dealERC20',
  params: [anyAddress('address'), anyAddress('token'), quantity('balance')],
  fork: { kind: 'local' },
  handler: async (ctx, [owner, token, amount]) => {
    await ctx.controls.dealErc20(token, owner, amount)
    return null
  },
})

/** anvil_setERC20Balance: {@link anvil_dealERC20} under Anvil's other name. */
export const anvil_setERC20Balance = alias('anvil_setERC20Balance', anvil_dealERC20)

/** hardhat_dealERC20: {@link anvil_dealERC20} under a Hardhat-style name. */
export const hardhat_dealERC20 = alias('hardhat_dealERC20', anvil_dealERC20)
