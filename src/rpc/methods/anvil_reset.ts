import type { RpcMethod } from '../context.ts'
import { resetToGenesis } from './hardhat_reset.ts'

/**
 * anvil_reset: back to a fresh genesis with the options the devnet was created with,
 * as hardhat_reset; null, Anvil's answer. Forking options are refused with -32602.
 */
export const anvil_reset: RpcMethod = async (ctx, params) => {
  await resetToGenesis(ctx, params)
  return null
}
