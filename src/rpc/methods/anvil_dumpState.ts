import { toHex } from '../../util/hex.ts'
import { alias, defineMethod } from '../declare.ts'
import { invalidArgument } from '../errors.ts'
import { optional, param } from '../paramSpecs.ts'

/**
 * anvil_dumpState (alias hardhat_dumpState): the head state as Anvil returns it, a
 * 0x-hex string of gzipped JSON, which viem's `dumpState` and Anvil users pass back
 * to anvil_loadState unopened. The JSON is the devnet's state document (README
 * "State that lasts"), not Anvil's layout; block history is not included. Anvil's
 * optional boolean (keep historical states) is accepted and has no effect.
 */
export const anvil_dumpState = defineMethod({
  name: 'anvil_dumpState',
  // Checked for its type only (the method's own wording, not go-ethereum's bool text), then ignored.
  params: [
    optional(
      param<boolean, boolean>('historical', (value, index) => {
        if (typeof value !== 'boolean') throw invalidArgument(index, 'expected a boolean')
        return value
      }),
    ),
  ],
  fork: { kind: 'local' },
  handler: async (ctx) => {
    // State documents and zlib load on first use, off the start-up path.
    const [{ gzipSync }, { dumpState }] = await Promise.all([import('node:zlib'), import('../../persistence/stateDocument.ts')])
    return toHex(gzipSync(JSON.stringify(dumpState(ctx.chain, ctx.chainId))))
  },
})

/** hardhat_dumpState: {@link anvil_dumpState} under Hardhat's name. */
export const hardhat_dumpState = alias('hardhat_dumpState', anvil_dumpState)
