import type { RpcMethod } from '../context.ts'
import { resetToGenesis } from './hardhat_reset.ts'

/**
 * anvil_reset: as hardhat_reset (`{ forking: { jsonRpcUrl, blockNumber? } }` forks
 * that remote; without it, a plain devnet); null, Anvil's answer.
 */
export const anvil_reset: RpcMethod = async (ctx, params) => {
  await resetToGenesis(ctx, params)
  return null
}
