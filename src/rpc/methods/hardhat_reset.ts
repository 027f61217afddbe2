import type { RpcContext, RpcMethod } from '../context.ts'
import { invalidArgument } from '../errors.ts'
import { expectParams } from '../params.ts'
import { ForkOptionError, type ForkOptions } from '../../chain/fork.ts'

/**
 * hardhat_reset: back to a fresh genesis with the options the devnet was created
 * with (see `Devnet.reset`); true. Hardhat's optional argument may be absent, null,
 * `{}`, or `{ forking: { jsonRpcUrl, blockNumber? } }`: a fork of that remote (at its
 * latest block by default). Without `forking` the devnet is a plain one again, as
 * Hardhat's reset without forking disables it. Other keys: -32602.
 */
export const hardhat_reset: RpcMethod = async (ctx, params) => {
  await resetToGenesis(ctx, params)
  return true
}

/** The reset of hardhat_reset and anvil_reset, after checking their optional options argument. */
export async function resetToGenesis(ctx: RpcContext, params: unknown): Promise<void> {
  const [options] = expectParams(params, 0, 1)
  let fork: ForkOptions | null = null
  if (options !== undefined && options !== null) {
    if (typeof options !== 'object' || Array.isArray(options)) throw invalidArgument(0, 'expected an options object')
    const { forking, ...rest } = options as { forking?: unknown }
    const keys = Object.keys(rest)
    if (keys.length > 0) throw invalidArgument(0, `${keys.join(', ')} ${keys.length === 1 ? 'is' : 'are'} not supported: only forking is`)
    if (forking !== undefined && forking !== null) fork = forkOf(forking)
  }
  try {
    await ctx.reset(fork)
  } catch (err) {
    // The option's name in Hardhat's and Anvil's shape: forking.jsonRpcUrl, forking.blockNumber.
    if (err instanceof ForkOptionError) throw invalidArgument(0, err.message.replace(/^option fork\.url\b/, 'forking.jsonRpcUrl').replace(/^option fork\./, 'forking.'))
    throw err
  }
}

/** Hardhat's and Anvil's `forking` object as the `fork` option; -32602 for anything else. */
function forkOf(forking: unknown): ForkOptions {
  if (typeof forking !== 'object' || Array.isArray(forking)) throw invalidArgument(0, 'forking must be an object { jsonRpcUrl, blockNumber? }')
  const { jsonRpcUrl, blockNumber } = forking as { jsonRpcUrl?: unknown; blockNumber?: unknown }
  if (typeof jsonRpcUrl !== 'string') throw invalidArgument(0, 'forking.jsonRpcUrl must be the URL of a JSON-RPC node')
  let number: number | undefined
  if (blockNumber !== undefined && blockNumber !== null) {
    number = typeof blockNumber === 'string' && /^0x[0-9a-f]+$/i.test(blockNumber) ? Number(BigInt(blockNumber)) : (blockNumber as number)
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) throw invalidArgument(0, 'forking.blockNumber must be a block number')
  }
  return number === undefined ? { url: jsonRpcUrl } : { url: jsonRpcUrl, blockNumber: number }
}
