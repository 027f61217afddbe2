import { defineMethod } from '../declare.ts'
import { resetOptions, resetToGenesis } from './hardhat_reset.ts'

/**
 * anvil_reset: as hardhat_reset (`{ forking: { jsonRpcUrl, blockNumber? } }` forks
 * that remote; without it, a plain devnet); null, Anvil's answer.
 */
export const anvil_reset = defineMethod({
  name: 'anvil_reset',
  params: [resetOptions('options')],
  fork: { kind: 'local' },
  handler: async (ctx, [fork]) => {
    await resetToGenesis(ctx, fork)
    return null
  },
})
