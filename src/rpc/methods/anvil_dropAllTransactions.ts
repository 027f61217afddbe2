import { alias, defineMethod } from '../declare.ts'

/** anvil_dropAllTransactions: empties the pool, EVM and native transactions alike; null (Anvil's answer). */
export const anvil_dropAllTransactions = defineMethod({
  name: 'anvil_dropAllTransactions',
  params: [],
  fork: { kind: 'local' },
  handler: async (ctx) => {
    await ctx.chain.dropPending()
    return null
  },
})

/** hardhat_dropAllTransactions: {@link anvil_dropAllTransactions} under the Hardhat-style name Anvil also answers (foundry crates/anvil/core/src/eth/mod.rs). */
export const hardhat_dropAllTransactions = alias('hardhat_dropAllTransactions', anvil_dropAllTransactions)

/** debug_clearTxpool: {@link anvil_dropAllTransactions} under reth's name, which Anvil also answers (null). */
export const debug_clearTxpool = alias('debug_clearTxpool', anvil_dropAllTransactions)
