import { toHex } from '../../util/hex.ts'
import type { RpcMethod } from '../context.ts'
import { invalidArgument } from '../errors.ts'
import { expectParams } from '../params.ts'

/**
 * anvil_dumpState (alias hardhat_dumpState): the head state as Anvil returns it, a
 * 0x-hex string of gzipped JSON, which viem's `dumpState` and Anvil users pass back
 * to anvil_loadState unopened. The JSON is the devnet's state document (README
 * "State that lasts"), not Anvil's layout; block history is not included. Anvil's
 * optional boolean (keep historical states) is accepted and has no effect.
 */
export const anvil_dumpState: RpcMethod = async (ctx, params) => {
  const [historical] = expectParams(params, 0, 1)
  if (historical !== undefined && historical !== null && typeof historical !== 'boolean') throw invalidArgument(0, 'expected a boolean')
  // State documents and zlib load on first use, off the start-up path.
  const [{ gzipSync }, { dumpState }] = await Promise.all([import('node:zlib'), import('../../chain/persistence/stateDocument.ts')])
  return toHex(gzipSync(JSON.stringify(dumpState(ctx.chain, ctx.chainId))))
}
