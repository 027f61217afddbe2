import { defineMethod } from '../declare.ts'
import { toQuantity } from '../../util/hex.ts'

/**
 * eth_baseFee: the next block's base fee in wei, where EIP-1559 is active (option
 * `hardfork` london or later), else null, as Anvil's `base_fee` answers (foundry
 * crates/anvil/src/eth/api.rs: "the base fee for the next block, or null before
 * London"). The chain has no fee market: it is 0 unless hardhat_setNextBlockBaseFeePerGas
 * set the next block's (reference §6.3).
 */
export const eth_baseFee = defineMethod({
  name: 'eth_baseFee',
  params: [],
  fork: { kind: 'local' },
  handler: (ctx) => (ctx.chain.executor.hasBaseFee ? toQuantity(ctx.chain.blockSettings.nextBaseFee) : null),
})
