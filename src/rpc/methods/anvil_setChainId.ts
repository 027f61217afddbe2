import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { numberish } from '../paramSpecs.ts'

/**
 * anvil_setChainId: refused unless `chainId` is the devnet's own (then null, as
 * Anvil's `anvil_set_chain_id`, foundry crates/anvil/src/eth/api.rs). The chain id is
 * fixed when the devnet is made (option `chainId`): the pool holds EIP-155 signed
 * transactions for it, the database records it, and the native side's network id and
 * the fork's remote go with it; changing it live would leave signed transactions and
 * stored blocks of another chain. Make a devnet with the `chainId` option instead.
 */
export const anvil_setChainId = defineMethod({
  name: 'anvil_setChainId',
  params: [numberish('chainId')],
  fork: { kind: 'local' },
  handler: (ctx, [chainId]) => {
    if (chainId === ctx.chainId) return null
    throw invalidArgument(0, `chainId: the chain id (${ctx.chainId}) is fixed when the devnet is made (option chainId): EIP-155 signatures in the pool and the stored blocks are bound to it`)
  },
})
