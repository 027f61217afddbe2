import type { RpcContext, RpcMethod } from '../context.ts'
import { invalidArgument } from '../errors.ts'
import { expectParams } from '../params.ts'

/**
 * hardhat_reset: back to a fresh genesis with the options the devnet was created
 * with (see `Devnet.reset`); true. Hardhat's optional argument
 * may be absent, null or `{}`; forking options are refused with -32602, as there is
 * no remote chain to fork.
 */
export const hardhat_reset: RpcMethod = async (ctx, params) => {
  await resetToGenesis(ctx, params)
  return true
}

/** The reset of hardhat_reset and anvil_reset, after checking their optional options argument. */
export async function resetToGenesis(ctx: RpcContext, params: unknown): Promise<void> {
  const [options] = expectParams(params, 0, 1)
  if (options !== undefined && options !== null) {
    if (typeof options !== 'object' || Array.isArray(options)) throw invalidArgument(0, 'expected an options object')
    const keys = Object.keys(options)
    if (keys.length > 0) throw invalidArgument(0, `${keys.includes('forking') ? 'forking is' : `${keys.join(', ')} are`} not supported: dualnet resets to its own genesis`)
  }
  await ctx.reset()
}
