import type { RpcContext } from '../context.ts'
import type { ParamSpec } from '../declare.ts'
import { defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { optional, param } from '../paramSpecs.ts'
import type { ResetOptions } from '../schema.ts'
import type { ForkOptions } from '../../fork/connect.ts'
import { ForkOptionError } from '../../fork/optionError.ts'

/**
 * hardhat_reset: back to a fresh genesis with the options the devnet was created
 * with (see `Devnet.reset`); true. Hardhat's optional argument may be absent, null,
 * `{}`, or `{ forking: { jsonRpcUrl, blockNumber? } }`: a fork of that remote (at its
 * latest block by default). Without `forking` the devnet is a plain one again, as
 * Hardhat's reset without forking disables it. Other keys: -32602.
 */
export const hardhat_reset = defineMethod({
  name: 'hardhat_reset',
  params: [resetOptions('options')],
  fork: { kind: 'local' },
  handler: async (ctx, [fork]) => {
    await resetToGenesis(ctx, fork)
    return true as const
  },
})

/**
 * The optional options argument of hardhat_reset and anvil_reset, as the `fork` option
 * to reset with: null (a plain devnet) when absent, null, `{}` or without `forking`.
 * Keys other than `forking`, or a malformed `forking`, are -32602.
 */
export function resetOptions(name: string): ParamSpec<ResetOptions | undefined, ForkOptions | null> {
  return optional(
    param<ResetOptions, ForkOptions | null>(name, (options, index) => {
      if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArgument(index, 'expected an options object')
      const { forking, ...rest } = options as { forking?: unknown }
      const keys = Object.keys(rest)
      if (keys.length > 0) throw invalidArgument(index, `${keys.join(', ')} ${keys.length === 1 ? 'is' : 'are'} not supported: only forking is`)
      return forking === undefined || forking === null ? null : forkOf(forking, index)
    }),
    null,
  )
}

/** The reset of hardhat_reset and anvil_reset, to a plain devnet (`fork` null) or a fork of `fork`'s remote. */
export async function resetToGenesis(ctx: RpcContext, fork: ForkOptions | null): Promise<void> {
  try {
    await ctx.reset(fork)
  } catch (err) {
    // The option's name in Hardhat's and Anvil's shape: forking.jsonRpcUrl, forking.blockNumber.
    if (err instanceof ForkOptionError) throw invalidArgument(0, err.message.replace(/^option fork\.url\b/, 'forking.jsonRpcUrl').replace(/^option fork\./, 'forking.'))
    throw err
  }
}

/** Hardhat's and Anvil's `forking` object as the `fork` option; -32602 for anything else. */
function forkOf(forking: unknown, index: number): ForkOptions {
  if (typeof forking !== 'object' || Array.isArray(forking)) throw invalidArgument(index, 'forking must be an object { jsonRpcUrl, blockNumber? }')
  const { jsonRpcUrl, blockNumber } = forking as { jsonRpcUrl?: unknown; blockNumber?: unknown }
  if (typeof jsonRpcUrl !== 'string') throw invalidArgument(index, 'forking.jsonRpcUrl must be the URL of a JSON-RPC node')
  let number: number | undefined
  if (blockNumber !== undefined && blockNumber !== null) {
    number = typeof blockNumber === 'string' && /^0x[0-9a-f]+$/i.test(blockNumber) ? Number(BigInt(blockNumber)) : (blockNumber as number)
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) throw invalidArgument(index, 'forking.blockNumber must be a block number')
  }
  return number === undefined ? { url: jsonRpcUrl } : { url: jsonRpcUrl, blockNumber: number }
}
