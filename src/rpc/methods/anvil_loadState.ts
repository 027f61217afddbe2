import { PersistenceError } from '../../persistence/errors.ts'
import { alias, defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { parseData } from '../params.ts'
import { param } from '../paramSpecs.ts'

/**
 * anvil_loadState (alias hardhat_loadState): writes a state into the latest state, as
 * Anvil merges it (listed accounts, slots and allowances replace what is there, the
 * rest stays); true. Takes what anvil_dumpState returns (0x-hex of gzipped JSON), the
 * hex of plain JSON, or the state document as a JSON object; the document may be the
 * devnet's or Anvil's. Anything else, another document version, or bytes past the
 * limits (`stateLimit` bytes of JSON after inflating, `jsonDepthLimit` levels) is
 * -32602 naming the limit, and changes nothing.
 */
export const anvil_loadState = defineMethod({
  name: 'anvil_loadState',
  // A string is DATA (the bytes of gzipped or plain JSON); anything else is the document itself, checked by the handler.
  params: [param<string | object, { bytes: Uint8Array } | { document: unknown }>('state', (value, index) => (typeof value === 'string' ? { bytes: parseData(value, index) } : { document: value }))],
  fork: { kind: 'local' },
  handler: async (ctx, [input]) => {
    // State documents load on first use, off the start-up path.
    const { applyState, parseStateDocument, readStateBytes } = await import('../../persistence/stateDocument.ts')
    let state
    try {
      state = parseStateDocument('bytes' in input ? await readStateBytes(input.bytes, ctx.limits) : input.document)
    } catch (err) {
      if (err instanceof PersistenceError) throw invalidArgument(0, err.message)
      throw err
    }
    await ctx.chain.writeState((world, height) => applyState(world, state, height))
    return true as const
  },
})

/** hardhat_loadState: {@link anvil_loadState} under Hardhat's name. */
export const hardhat_loadState = alias('hardhat_loadState', anvil_loadState)
