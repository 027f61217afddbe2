import { PersistenceError } from '../../chain/persistence/errors.ts'
import type { RpcMethod } from '../context.ts'
import { invalidArgument } from '../errors.ts'
import { expectParams, parseData } from '../params.ts'

/**
 * anvil_loadState (alias hardhat_loadState): writes a state into the latest state, as
 * Anvil merges it (listed accounts, slots and allowances replace what is there, the
 * rest stays); true. Takes what anvil_dumpState returns (0x-hex of gzipped JSON), the
 * hex of plain JSON, or the state document as a JSON object; the document may be the
 * devnet's or Anvil's. Anything else, another document version, or bytes past the
 * limits (`stateLimit` bytes of JSON after inflating, `jsonDepthLimit` levels) is
 * -32602 naming the limit, and changes nothing.
 */
export const anvil_loadState: RpcMethod = async (ctx, params) => {
  const [input] = expectParams(params, 1)
  const bytes = typeof input === 'string' ? parseData(input, 0) : undefined
  // State documents load on first use, off the start-up path.
  const { applyState, parseStateDocument, readStateBytes } = await import('../../chain/persistence/stateDocument.ts')
  let state
  try {
    state = parseStateDocument(bytes === undefined ? input : await readStateBytes(bytes, ctx.limits))
  } catch (err) {
    if (err instanceof PersistenceError) throw invalidArgument(0, err.message)
    throw err
  }
  await ctx.chain.writeState((world, height) => applyState(world, state, height))
  return true
}
